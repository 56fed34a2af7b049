"""Chinese function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of Chinese (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    的 是 在 了 吗 呢 吧 谁 哪 什 么 几 多 少 时 候 个 位 和 与 及 或 之 于 被 把 给 从 到 为
    由 也 都 就 这 那 其 有 哪 里 儿 呀 啊 嘛
"""
"""Function and question words this product reads in Chinese, beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("zh", OWN)
