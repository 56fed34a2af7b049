"""User-facing messages of issue 33 ("say which 'I don't know' it is"), in the shape of
:data:`chat.messages.MESSAGES` (key -> {lang: text}); merged into it by ``chat.messages``.
The integrator moves them into the gettext catalogs with the rest."""

from __future__ import annotations

NEW_MESSAGES: dict[str, dict[str, str]] = {
    "unknown_entity": {
        "en": "I don't know anyone or anything called {name}.",
        "de": "Ich kenne niemanden und nichts namens {name}.",
        "ru": "Я не знаю никого и ничего с названием {name}.",
        "zh": "我不知道有谁或什么叫{name}。",
        "fr": "Je ne connais personne ni rien qui s'appelle {name}.",
        "es": "No conozco a nadie ni nada llamado {name}.",
        "uk": "Я не знаю нікого й нічого з назвою {name}.",
        "ja": "{name}という名前の人や物は知りません。",
        "it": "Non conosco nessuno e niente che si chiami {name}.",
        "pt": "Não conheço ninguém nem nada chamado {name}.",
    },
    "not_understood_unplaced": {
        "en": "I'm not sure I understood your question: I could not place «{unplaced}», so I give no answer.",
        "de": "Ich bin nicht sicher, ob ich Ihre Frage verstanden habe: «{unplaced}» konnte ich nicht einordnen, "
              "daher gebe ich keine Antwort.",
        "ru": "Я не уверен, что понял вопрос: я не смог понять «{unplaced}», поэтому не даю ответа.",
        "zh": "我不确定是否理解了您的问题：我无法理解“{unplaced}”，所以不给出答案。",
        "fr": "Je ne suis pas sûr d'avoir compris votre question : je n'ai pas su situer « {unplaced} », "
              "je ne donne donc pas de réponse.",
        "es": "No estoy seguro de haber entendido su pregunta: no supe situar «{unplaced}», así que no doy respuesta.",
        "uk": "Я не впевнений, що зрозумів запитання: я не зміг зрозуміти «{unplaced}», тому не даю відповіді.",
        "ja": "質問を正しく理解できたか自信がありません。「{unplaced}」が理解できなかったため、回答しません。",
        "it": "Non sono sicuro di aver capito la domanda: non ho saputo collocare «{unplaced}», "
              "quindi non do una risposta.",
        "pt": "Não tenho certeza de ter entendido a sua pergunta: não consegui situar «{unplaced}», "
              "por isso não dou resposta.",
    },
    "not_understood_partly": {
        "en": "I understood the {property} of {entity}, but not «{unplaced}», so I give no answer.",
        "de": "Verstanden habe ich {property} von {entity}, aber nicht «{unplaced}», daher gebe ich keine Antwort.",
        "ru": "Я понял «{property}» для {entity}, но не «{unplaced}», поэтому не даю ответа.",
        "zh": "我理解了{entity}的{property}，但没有理解“{unplaced}”，所以不给出答案。",
        "fr": "J'ai compris « {property} » de {entity}, mais pas « {unplaced} », je ne donne donc pas de réponse.",
        "es": "Entendí «{property}» de {entity}, pero no «{unplaced}», así que no doy respuesta.",
        "uk": "Я зрозумів «{property}» для {entity}, але не «{unplaced}», тому не даю відповіді.",
        "ja": "{entity}の{property}については理解しましたが、「{unplaced}」が理解できなかったため、回答しません。",
        "it": "Ho capito «{property}» di {entity}, ma non «{unplaced}», quindi non do una risposta.",
        "pt": "Entendi «{property}» de {entity}, mas não «{unplaced}», por isso não dou resposta.",
    },
    "data_lists": {
        "en": "My data lists {n}: {items}",
        "de": "Meine Daten führen {n} auf: {items}",
        "ru": "В моих данных указано {n}: {items}",
        "zh": "我的数据列出了{n}个：{items}",
        "fr": "Mes données en listent {n} : {items}",
        "es": "Mis datos enumeran {n}: {items}",
        "uk": "У моїх даних зазначено {n}: {items}",
        "ja": "私のデータには{n}件あります：{items}",
        "it": "I miei dati ne elencano {n}: {items}",
        "pt": "Os meus dados listam {n}: {items}",
    },
}
"""Keys: ``unknown_entity`` (a typed name no entity is called), ``not_understood_unplaced`` and
``not_understood_partly`` (the ``not_understood`` reply saying what it could not place,
without and with the reading that covered the rest), ``data_lists`` (a COUNT shown as the
list it counted, never as a bare number)."""

SEED_MESSAGES: dict[str, dict[str, str]] = {
    "unknown_entity": {
        "be": 'Я не ведаю нікога і нічога з назвай {name}.',
        "lt": 'Nežinau nieko, kas vadintųsi {name}.',
        "hy": 'Ես չգիտեմ որևէ մեկին կամ որևէ բան, որը կոչվում է {name}։',
        "ba": 'Мин {name} исемле бер кемде лә, бер нәмәне лә белмәйем.',
        "ar": 'لا أعرف أحدًا أو شيئًا يُسمّى {name}.',
        "hi": 'मैं {name} नाम के किसी व्यक्ति या चीज़ को नहीं जानता।',
        "bn": '{name} নামে কাউকে বা কিছুকে আমি চিনি না।',
        "am": '{name} የሚባል ማንንም ወይም ምንንም አላውቅም።',
        "nl": 'Ik ken niemand en niets met de naam {name}.',
    },
    "not_understood_unplaced": {
        "be": 'Я не ўпэўнены, што зразумеў пытанне: я не змог зразумець «{unplaced}», таму не даю адказу.',
        "lt": 'Nesu tikras, ar supratau klausimą: nesupratau „{unplaced}“, todėl neatsakau.',
        "hy": 'Վստահ չեմ, որ հասկացա հարցը. չկարողացա հասկանալ «{unplaced}»-ը, ուստի պատասխան չեմ տալիս։',
        "ba": 'Һорауҙы аңланыммы икән, белмәйем: «{unplaced}» аңлай алманым, шуға яуап бирмәйем.',
        "ar": 'لست متأكدًا من أنني فهمت سؤالك: لم أستطع فهم «{unplaced}»، لذا لا أقدّم إجابة.',
        "hi": 'मुझे यकीन नहीं कि मैंने आपका प्रश्न समझा: मैं «{unplaced}» को नहीं समझ पाया, इसलिए उत्तर नहीं दे रहा।',
        "bn": 'আমি নিশ্চিত নই যে প্রশ্নটি বুঝেছি: «{unplaced}» বুঝতে পারিনি, তাই উত্তর দিচ্ছি না।',
        "am": 'ጥያቄዎን እንደተረዳሁ እርግጠኛ አይደለሁም፤ «{unplaced}»ን መረዳት አልቻልኩም፣ ስለዚህ መልስ አልሰጥም።',
        "nl": ('Ik weet niet zeker of ik uw vraag begrepen heb: ik kon «{unplaced}» niet plaatsen, '
               'dus ik geef geen antwoord.'),
    },
    "not_understood_partly": {
        "be": 'Я зразумеў «{property}» для {entity}, але не «{unplaced}», таму не даю адказу.',
        "lt": 'Supratau „{property}“ objektui {entity}, bet ne „{unplaced}“, todėl neatsakau.',
        "hy": 'Հասկացա {entity}-ի «{property}»-ը, բայց ոչ «{unplaced}»-ը, ուստի պատասխան չեմ տալիս։',
        "ba": '{entity} өсөн «{property}» аңланым, ләкин «{unplaced}» аңламаным, шуға яуап бирмәйем.',
        "ar": 'فهمت «{property}» لـ{entity}، لكن ليس «{unplaced}»، لذا لا أقدّم إجابة.',
        "hi": 'मैंने {entity} का «{property}» समझा, पर «{unplaced}» नहीं, इसलिए उत्तर नहीं दे रहा।',
        "bn": '{entity}-এর «{property}» বুঝেছি, কিন্তু «{unplaced}» নয়, তাই উত্তর দিচ্ছি না।',
        "am": 'የ{entity}ን «{property}» ተረድቻለሁ፣ «{unplaced}»ን ግን አልተረዳሁም፤ ስለዚህ መልስ አልሰጥም።',
        "nl": 'Ik begreep «{property}» van {entity}, maar niet «{unplaced}», dus ik geef geen antwoord.',
    },
    "data_lists": {
        "be": 'Мае даныя называюць {n}: {items}',
        "lt": 'Mano duomenyse nurodyta {n}: {items}',
        "hy": 'Իմ տվյալներում նշված է {n}՝ {items}',
        "ba": 'Минең мәғлүмәттәрҙә {n}: {items}',
        "ar": 'تذكر بياناتي {n}: {items}',
        "hi": 'मेरे डेटा में {n} दर्ज हैं: {items}',
        "bn": 'আমার তথ্যে {n}টি আছে: {items}',
        "am": 'የእኔ መረጃ {n} ይዘረዝራል፦ {items}',
        "nl": 'Mijn gegevens noemen er {n}: {items}',
    },
}
"""The same messages in the seed languages."""
for _key, _table in SEED_MESSAGES.items():
    NEW_MESSAGES[_key].update(_table)
