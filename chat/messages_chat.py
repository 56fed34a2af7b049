"""User-facing text of the conversation (issue 36: follow-ups, two-part questions, languages
the chat does not speak yet, a new conversation), in the shape of
:data:`chat.messages.MESSAGES` (key -> {lang: text}); merged into it there.  The
integrator moves these into the gettext catalogs with the rest."""

from __future__ import annotations

NEW_MESSAGES: dict[str, dict[str, str]] = {
    "second_part": {
        "en": "You asked two questions at once; this answers the first. The second, “{second}”, is answered on "
              "its own.",
        "de": "Sie haben zwei Fragen auf einmal gestellt; dies beantwortet die erste. Die zweite, „{second}“, "
              "wird für sich beantwortet.",
        "ru": "Вы задали два вопроса сразу; здесь ответ на первый. Второй, «{second}», получает свой ответ.",
        "zh": "您一次问了两个问题；这里回答第一个。第二个“{second}”单独回答。",
        "fr": "Vous avez posé deux questions à la fois ; ceci répond à la première. La seconde, « {second} », "
              "reçoit sa propre réponse.",
        "es": "Hizo dos preguntas a la vez; esto responde a la primera. La segunda, «{second}», se responde "
              "aparte.",
        "uk": "Ви поставили два запитання одразу; тут відповідь на перше. Друге, «{second}», отримує свою "
              "відповідь.",
        "ja": "一度に二つの質問がありました。ここでは一つ目に答えます。二つ目「{second}」には別に答えます。",
        "it": "Ha fatto due domande insieme; questa risponde alla prima. La seconda, «{second}», ha una "
              "risposta a parte.",
        "pt": "Fez duas perguntas de uma vez; isto responde à primeira. A segunda, «{second}», é respondida "
              "à parte.",
    },
    "followup_about": {
        "en": "Read as a follow-up about {name}: “{question}”",
        "de": "Als Anschlussfrage zu {name} gelesen: „{question}“",
        "ru": "Понял как уточнение про {name}: «{question}»",
        "zh": "理解为关于{name}的追问：“{question}”",
        "fr": "Lu comme une suite sur {name} : « {question} »",
        "es": "Leída como continuación sobre {name}: «{question}»",
        "uk": "Зрозумів як уточнення про {name}: «{question}»",
        "ja": "{name}についての続きの質問として読みました：「{question}」",
        "it": "Letta come seguito su {name}: «{question}»",
        "pt": "Lida como continuação sobre {name}: «{question}»",
    },
    "unsupported_language": {
        "en": "This looks like {language}, which I do not speak yet. I can answer in: {supported}.",
        "de": "Das sieht nach {language} aus; diese Sprache spreche ich noch nicht. Ich antworte auf: "
              "{supported}.",
        "ru": "Похоже, это {language}: этот язык я пока не знаю. Я отвечаю на языках: {supported}.",
        "zh": "这看起来是{language}，我还不会这种语言。我可以用这些语言回答：{supported}。",
        "fr": "Cela ressemble à du {language}, une langue que je ne parle pas encore. Je réponds en : "
              "{supported}.",
        "es": "Parece {language}, un idioma que todavía no hablo. Puedo responder en: {supported}.",
        "uk": "Схоже, це {language}: цієї мови я поки не знаю. Я відповідаю мовами: {supported}.",
        "ja": "これは{language}のようですが、まだ対応していません。対応している言語：{supported}。",
        "it": "Sembra {language}, una lingua che non parlo ancora. Posso rispondere in: {supported}.",
        "pt": "Parece {language}, uma língua que ainda não falo. Posso responder em: {supported}.",
    },
    "ui_new_conversation": {
        "en": "New conversation", "de": "Neues Gespräch", "ru": "Новый разговор", "zh": "新对话",
        "fr": "Nouvelle conversation", "es": "Nueva conversación", "uk": "Нова розмова", "ja": "新しい会話",
        "it": "Nuova conversazione", "pt": "Nova conversa",
    },
    "too_long_kept": {
        "en": "Your question has {length} characters; the limit is {limit}. It is still in the box: please "
              "shorten it.",
        "de": "Ihre Frage hat {length} Zeichen; erlaubt sind {limit}. Sie steht noch im Eingabefeld: bitte "
              "kürzen Sie sie.",
        "ru": "В вопросе {length} символов, а можно не больше {limit}. Он остался в поле ввода: сократите его, "
              "пожалуйста.",
        "zh": "您的问题有 {length} 个字符，上限是 {limit}。问题仍在输入框中，请缩短。",
        "fr": "Votre question compte {length} caractères ; la limite est de {limit}. Elle est toujours dans "
              "la zone de saisie : raccourcissez-la.",
        "es": "Su pregunta tiene {length} caracteres; el límite es {limit}. Sigue en el cuadro: acórtela, "
              "por favor.",
        "uk": "У запитанні {length} символів, а можна не більше {limit}. Воно залишилося в полі введення: "
              "скоротіть його, будь ласка.",
        "ja": "質問は {length} 文字あります。上限は {limit} 文字です。入力欄に残してあるので短くしてください。",
        "it": "La domanda ha {length} caratteri; il limite è {limit}. È ancora nella casella: la accorci, "
              "per favore.",
        "pt": "A sua pergunta tem {length} caracteres; o limite é {limit}. Continua na caixa: encurte-a, "
              "por favor.",
    },
}
"""New messages of the conversation (placeholders as ``{name}``)."""

SEED_MESSAGES: dict[str, dict[str, str]] = {
    "second_part": {
        "be": "Вы задалі два пытанні адразу; тут адказ на першае. Другое, «{second}», атрымлівае свой адказ.",
        "lt": "Uždavėte du klausimus iš karto; čia atsakymas į pirmąjį. Į antrąjį, „{second}“, atsakoma atskirai.",
        "hy": "Դուք միանգամից երկու հարց տվեցիք․ սա պատասխանում է առաջինին։ Երկրորդին՝ «{second}», "
              "պատասխանվում է առանձին։",
        "ba": "Һеҙ бер юлы ике һорау бирҙегеҙ; был беренсеһенә яуап. Икенсеһенә, «{second}», айырым яуап бирелә.",
        "ar": "طرحت سؤالين معًا؛ هذا يجيب عن الأول. أما الثاني، «{second}»، فيُجاب عنه وحده.",
        "hi": "आपने एक साथ दो प्रश्न पूछे; यह पहले का उत्तर है। दूसरे, “{second}”, का उत्तर अलग से दिया जाता है।",
        "bn": "আপনি একসাথে দুটি প্রশ্ন করেছেন; এটি প্রথমটির উত্তর। দ্বিতীয়টি, “{second}”, আলাদাভাবে উত্তর পায়।",
        "am": "ሁለት ጥያቄዎችን በአንድ ጊዜ ጠየቁ፤ ይህ የመጀመሪያውን ይመልሳል። ሁለተኛው «{second}» ለብቻው ይመለሳል።",
        "nl": "U stelde twee vragen tegelijk; dit beantwoordt de eerste. De tweede, ‘{second}’, wordt apart "
              "beantwoord.",
    },
    "followup_about": {
        "be": "Зразумеў як удакладненне пра {name}: «{question}»",
        "lt": "Supratau kaip tęstinį klausimą apie {name}: „{question}“",
        "hy": "Հասկացա որպես շարունակություն {name}-ի մասին՝ «{question}»",
        "ba": "{name} тураһында дауам итеүсе һорау тип аңланым: «{question}»",
        "ar": "فهمته سؤالًا تابعًا عن {name}: «{question}»",
        "hi": "{name} के बारे में अगले प्रश्न के रूप में पढ़ा: “{question}”",
        "bn": "{name} সম্পর্কে পরের প্রশ্ন হিসেবে পড়েছি: “{question}”",
        "am": "ስለ {name} እንደ ተከታይ ጥያቄ ተረድቻለሁ፦ «{question}»",
        "nl": "Gelezen als vervolgvraag over {name}: ‘{question}’",
    },
    "unsupported_language": {
        "be": "Падобна, гэта {language}: гэтую мову я пакуль не ведаю. Я адказваю на мовах: {supported}.",
        "lt": "Panašu, kad tai {language} – šios kalbos dar nemoku. Atsakau šiomis kalbomis: {supported}.",
        "hy": "Կարծես սա {language} է, որը դեռ չգիտեմ։ Կարող եմ պատասխանել՝ {supported}։",
        "ba": "Был {language} телендә кеүек, был телде мин әлегә белмәйем. Мин ошо телдәрҙә яуап бирәм: "
              "{supported}.",
        "ar": "يبدو أن هذه {language}، وهي لغة لا أتحدثها بعد. يمكنني الإجابة بـ: {supported}.",
        "hi": "यह {language} लगती है, जो मैं अभी नहीं बोलता। मैं इन भाषाओं में उत्तर देता हूँ: {supported}।",
        "bn": "এটি {language} মনে হচ্ছে, যা আমি এখনও বলি না। আমি এই ভাষাগুলিতে উত্তর দিই: {supported}।",
        "am": "ይህ {language} ይመስላል፤ ይህን ቋንቋ ገና አልችልም። የምመልስባቸው ቋንቋዎች፦ {supported}።",
        "nl": "Dit lijkt {language}, een taal die ik nog niet spreek. Ik antwoord in: {supported}.",
    },
    "ui_new_conversation": {
        "be": "Новая размова", "lt": "Naujas pokalbis", "hy": "Նոր զրույց", "ba": "Яңы һөйләшеү",
        "ar": "محادثة جديدة", "hi": "नई बातचीत", "bn": "নতুন কথোপকথন", "am": "አዲስ ውይይት",
        "nl": "Nieuw gesprek",
    },
    "too_long_kept": {
        "be": "У пытанні {length} знакаў, а можна не больш за {limit}. Яно засталося ў полі ўводу: скараціце яго.",
        "lt": "Klausime yra {length} ženklų, o leidžiama {limit}. Jis liko laukelyje: sutrumpinkite jį.",
        "hy": "Հարցը {length} նիշ ունի, թույլատրելին {limit} է։ Այն մնացել է դաշտում․ խնդրում եմ կրճատել։",
        "ba": "Һорауҙа {length} билдә, ә {limit} билдәнән артыҡ ярамай. Ул яҙыу урынында ҡалды: ҡыҫҡартығыҙ.",
        "ar": "يحتوي سؤالك على {length} حرفًا، والحد {limit}. ما زال في المربع: يرجى اختصاره.",
        "hi": "आपके प्रश्न में {length} अक्षर हैं; सीमा {limit} है। यह अभी भी बॉक्स में है: कृपया इसे छोटा करें।",
        "bn": "আপনার প্রশ্নে {length}টি অক্ষর আছে; সীমা {limit}। এটি এখনও বাক্সে আছে: দয়া করে ছোট করুন।",
        "am": "ጥያቄዎ {length} ፊደላት አሉት፤ ገደቡ {limit} ነው። አሁንም በሳጥኑ ውስጥ ነው፤ እባክዎ ያሳጥሩት።",
        "nl": "Uw vraag heeft {length} tekens; de grens is {limit}. Ze staat nog in het vak: maak haar korter.",
    },
}
for _key, _table in SEED_MESSAGES.items():
    NEW_MESSAGES[_key].update(_table)
