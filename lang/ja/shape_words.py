"""Japanese words that mark a question's shape: counts, superlatives, comparisons, ordinals,
yes/no questions, and the words of the literal properties (read by :mod:`qa.reading.analysis`;
see :class:`lang.base.ShapeWords`)."""

from lang.base import ShapeWords

SHAPE_WORDS = ShapeWords(
    count=("いくつ", "何人", "何個", "何か国", "何カ国", "何回", "何冊"),
    superlative=("最も", "最大", "最小", "最高", "最低", "最年長", "最年少", "一番"),
    ordinal=("最初", "初代", "最後", "番目", "二番", "三番", "初の", "初めて"),
    wh=("誰", "何", "どこ", "いつ", "どの", "どちら", "どれ", "いくつ", "どう", "なぜ"),
    alternative=("と", "か", "または", "どちら"),
    question_particles=("か",),
    lists=("と", "か", "または"),
    than=("より",),
    amount=("数",),
    yes_no_anywhere=("ですか", "ましたか", "でしたか", "か？", "か?", "かどうか",
        "でしょうか", "本当ですか", "ありますか"),
    more=("多い", "高い", "最大", "最高", "最も多い", "長く", "大きい", "大きな", "広い", "多く"),
    less=("少ない", "低い", "最小", "最低", "短く", "小さい", "小さな"),
    gradables={
        "older": ("年上", "最年長"),
        "younger": ("年下", "最年少"),
        "taller": ("背が高い",),
        "longer": ("最長",),
        "bigger": ("最大", "大きい"),
        "smaller": ("最小",),
        "earlier": ("最初", "早い"),
        "later": ("最後", "遅い"),
    },
    literal_properties={
        "P569": ("生まれ", "誕生", "生年"),
        "P570": ("死去", "没年"),
        "P571": ("設立", "創立", "建国", "創設"),
        "P580": ("開始",),
        "P582": ("終了",),
        "P1082": ("人口",),
        "P2046": ("面積",),
        "P2048": ("身長",),
        "P2067": ("体重",),
        "P2131": ("gdp", "国内総生産"),
        "P2132": ("一人当たり",),
        "P2250": ("平均寿命",),
    },
    listing=('どの', 'どれ', '挙げて'),
    both=('両方', '共に', '一緒に', '共通'),
    alive=('まだ生きて', '生きて', '存命', '健在'),
    negation=('ない', '以外'),
)
