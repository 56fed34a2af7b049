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
        "en": "Your question is too long: {length} characters, the limit is {limit}. It is still in the box: please "
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
    "yes_sentence": {
        "en": "Yes: {object} is the {property} of {subject}.", "de": "Ja: {object} ist {property} von {subject}.",
        "ru": "Да: {property} ({subject}) — {object}.", "zh": "是：{subject}的{property}是{object}。",
        "fr": "Oui : {object} est {property} de {subject}.", "es": "Sí: {object} es {property} de {subject}.",
        "uk": "Так: {property} ({subject}) — {object}.", "ja": "はい：{subject}の{property}は{object}です。",
        "it": "Sì: {object} è {property} di {subject}.", "pt": "Sim: {object} é {property} de {subject}.",
    },
    "no_sentence": {
        "en": "No: {object} is not the {property} of {subject}.",
        "de": "Nein: {object} ist nicht {property} von {subject}.",
        "ru": "Нет: {property} ({subject}) — не {object}.", "zh": "否：{subject}的{property}不是{object}。",
        "fr": "Non : {object} n'est pas {property} de {subject}.",
        "es": "No: {object} no es {property} de {subject}.", "uk": "Ні: {property} ({subject}) — не {object}.",
        "ja": "いいえ：{subject}の{property}は{object}ではありません。",
        "it": "No: {object} non è {property} di {subject}.", "pt": "Não: {object} não é {property} de {subject}.",
    },
    "badge_fallback": {
        "en": "The name in {language}: I have none in your language.",
        "de": "Der Name auf {language}: In Ihrer Sprache habe ich keinen.",
        "ru": "Название на языке: {language}. На вашем языке названия у меня нет.",
        "zh": "这是{language}名称：我没有您语言中的名称。",
        "fr": "Le nom en {language} : je n'en ai pas dans votre langue.",
        "es": "El nombre en {language}: no tengo ninguno en su idioma.",
        "uk": "Назва мовою: {language}. Вашою мовою назви в мене немає.",
        "ja": "{language}での名前です。あなたの言語での名前はありません。",
        "it": "Il nome in {language}: non ne ho uno nella sua lingua.",
        "pt": "O nome em {language}: não tenho nenhum na sua língua.",
    },
    "ui_knows": {
        "en": "I know {facts} facts about {entities} people, places, countries and works, taken from Wikidata: where "
              "and when someone was born or died, capitals, languages, authors, members, dates and numbers. I answer "
              "in {languages} languages, and you can follow up (“and where did he die?”). Many facts are missing, "
              "so I often say “I don't know” rather than guess.",
        "de": "Ich kenne {facts} Fakten über {entities} Personen, Orte, Länder und Werke aus Wikidata: wo und wann "
              "jemand geboren wurde oder starb, Hauptstädte, Sprachen, Autoren, Mitglieder, Daten und Zahlen. Ich "
              "antworte in {languages} Sprachen, und Sie können nachfragen („Und wo ist er gestorben?“). Viele "
              "Fakten fehlen, daher sage ich oft „Das weiß ich nicht“, statt zu raten.",
        "ru": "Я знаю {facts} фактов о {entities} людях, местах, странах и произведениях из Викиданных: где и когда "
              "кто-то родился или умер, столицы, языки, авторы, участники, даты и числа. Я отвечаю на {languages} "
              "языках, и можно задавать уточняющие вопросы («а где он умер?»). Многих фактов нет, поэтому я часто "
              "говорю «Я не знаю», а не угадываю.",
        "zh": "我知道来自维基数据的 {facts} 条事实，涉及 {entities} 个人物、地点、国家和作品："
              "某人何时何地出生或去世、首都、语言、作者、成员、日期和数字。我用 {languages} 种语言回答，您也可以追问（“"
              "他在哪里去世？”）。很多事实缺失，"
              "所以我常说“我不知道”，而不是猜测。",
        "fr": "Je connais {facts} faits sur {entities} personnes, lieux, pays et œuvres, tirés de Wikidata : où et "
              "quand quelqu'un est né ou mort, capitales, langues, auteurs, membres, dates et nombres. Je réponds en "
              "{languages} langues, et vous pouvez enchaîner (« et où est-il mort ? »). Beaucoup de faits manquent : "
              "je dis souvent « Je ne sais pas » plutôt que de deviner.",
        "es": "Conozco {facts} datos sobre {entities} personas, lugares, países y obras, tomados de Wikidata: dónde y "
              "cuándo nació o murió alguien, capitales, idiomas, autores, miembros, fechas y números. Respondo en "
              "{languages} idiomas y puede seguir preguntando («¿y dónde murió?»). Faltan muchos datos, así que a "
              "menudo digo «No lo sé» en lugar de adivinar.",
        "uk": "Я знаю {facts} фактів про {entities} людей, місця, країни та твори з Вікіданих: де і коли хтось "
              "народився чи помер, столиці, мови, автори, учасники, дати й числа. Я відповідаю {languages} мовами, і "
              "можна ставити уточнювальні запитання («а де він помер?»). Багатьох фактів немає, тому я часто кажу "
              "«Я не знаю», а не вгадую.",
        "ja": "ウィキデータから取った {entities} 件の人物・場所・国・作品について {facts} 件の事実を"
              "知っています：誰かがいつどこで生まれ亡くなったか、首都、言語、著者、メンバー、日付や数値など。"
              "{languages} の言語で答え、続けて質問することもできます（「彼はどこで亡くなりましたか？」）。多くの事実が"
              "欠けているため、推測せずに"
              "「わかりません」と答えることがよくあります。",
        "it": "Conosco {facts} fatti su {entities} persone, luoghi, paesi e opere, presi da Wikidata: dove e quando "
              "qualcuno è nato o morto, capitali, lingue, autori, membri, date e numeri. Rispondo in {languages} "
              "lingue e può fare domande di seguito («e dove è morto?»). Mancano molti fatti, quindi spesso dico "
              "«Non lo so» invece di tirare a indovinare.",
        "pt": "Conheço {facts} factos sobre {entities} pessoas, lugares, países e obras, tirados do Wikidata: onde e "
              "quando alguém nasceu ou morreu, capitais, línguas, autores, membros, datas e números. Respondo em "
              "{languages} línguas e pode continuar a perguntar («e onde ele morreu?»). Faltam muitos factos, por "
              "isso digo muitas vezes «Não sei» em vez de adivinhar.",
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
    "yes_sentence": {
        "be": "Так: {property} ({subject}) — {object}.", "lt": "Taip: {subject} – {property}: {object}.",
        "hy": "Այո․ {subject} – {property}՝ {object}։", "ba": "Эйе: {subject} – {property}: {object}.",
        "ar": "نعم: {property} ({subject}) هو {object}.", "hi": "हाँ: {subject} – {property}: {object}।",
        "bn": "হ্যাঁ: {subject} – {property}: {object}।", "am": "አዎ፦ {subject} – {property}፦ {object}።",
        "nl": "Ja: {object} is {property} van {subject}.",
    },
    "no_sentence": {
        "be": "Не: {property} ({subject}) — не {object}.", "lt": "Ne: {subject} – {property}: ne {object}.",
        "hy": "Ոչ․ {subject} – {property}՝ ոչ {object}։", "ba": "Юҡ: {subject} – {property}: {object} түгел.",
        "ar": "لا: {property} ({subject}) ليس {object}.", "hi": "नहीं: {subject} – {property}: {object} नहीं।",
        "bn": "না: {subject} – {property}: {object} নয়।", "am": "አይ፦ {subject} – {property}፦ {object} አይደለም።",
        "nl": "Nee: {object} is niet {property} van {subject}.",
    },
    "badge_fallback": {
        "be": "Назва на мове: {language}. На вашай мове назвы ў мяне няма.",
        "lt": "Pavadinimas kalba: {language}. Jūsų kalba pavadinimo neturiu.",
        "hy": "Անվանումը՝ {language}։ Ձեր լեզվով անվանում չունեմ։",
        "ba": "Исеме {language} телендә: һеҙҙең телдә исеме юҡ.",
        "ar": "الاسم باللغة {language}: ليس لدي اسم بلغتك.",
        "hi": "{language} में नाम: आपकी भाषा में मेरे पास नाम नहीं है।",
        "bn": "{language} ভাষায় নাম: আপনার ভাষায় আমার কাছে নাম নেই।",
        "am": "ስሙ በ{language}፦ በቋንቋዎ ስም የለኝም።",
        "nl": "De naam in het {language}: in uw taal heb ik er geen.",
    },
    "ui_knows": {
        "be": "Я ведаю {facts} фактаў пра {entities} людзей, месцы, краіны і творы з Вікіданых: дзе і калі хтосьці "
              "нарадзіўся ці памёр, сталіцы, мовы, аўтары, удзельнікі, даты і лікі. Я адказваю на {languages} мовах, і "
              "можна пытацца далей («а дзе ён памёр?»). Многіх фактаў няма, таму я часта кажу «Я не ведаю».",
        "lt": "Žinau {facts} faktų apie {entities} žmones, vietas, šalis ir kūrinius iš Vikiduomenų: kur ir kada kas "
              "gimė ar mirė, sostinės, kalbos, autoriai, nariai, datos ir skaičiai. Atsakau {languages} kalbomis, "
              "galite klausti toliau („o kur jis mirė?“). Daug faktų trūksta, todėl dažnai sakau „Nežinau“.",
        "hy": "Գիտեմ {facts} փաստ {entities} մարդկանց, վայրերի, երկրների և ստեղծագործությունների "
              "մասին՝ Վիքիտվյալներից։ Պատասխանում եմ {languages} լեզվով, կարող եք շարունակել հարցնել («իսկ որտե՞ղ է նա "
              "մահացել»)։ Շատ փաստեր "
              "բացակայում են, ուստի հաճախ ասում եմ «Չգիտեմ»։",
        "ba": "Мин Викимәғлүмәттәрҙән {entities} кеше, урын, ил һәм әҫәр тураһында {facts} факт беләм. Мин {languages} "
              "телдә яуап бирәм, артабан да һорарға була («ә ул ҡайҙа үлгән?»). Күп факттар юҡ, шуға күрә мин йыш "
              "«Белмәйем» тием.",
        "ar": "أعرف {facts} حقيقة عن {entities} من الأشخاص والأماكن والبلدان والأعمال من ويكي بيانات: أين ومتى وُلد "
              "أحدهم أو توفي، والعواصم، واللغات، والمؤلفين، والتواريخ والأرقام. أجيب بـ {languages} لغة، ويمكنك متابعة "
              "السؤال («وأين توفي؟»). كثير من الحقائق ناقصة، لذلك أقول غالبًا «لا أعرف» بدل التخمين.",
        "hi": "मैं विकिडेटा से {entities} लोगों, स्थानों, देशों और कृतियों के बारे में {facts} तथ्य जानता हूँ: कोई कब औ"
              "र कहाँ "
              "जन्मा या मरा, राजधानियाँ, भाषाएँ, लेखक, तिथियाँ और संख्याएँ। मैं {languages} भाषाओं में उत्तर देता हूँ, "
              "और आप "
              "आगे पूछ सकते हैं („और उनकी मृत्यु कहाँ हुई?“)। कई तथ्य नहीं हैं, इसलिए मैं अक्सर अनुमान के बजाय „मुझे नह"
              "ीं "
              "पता“ कहता हूँ।",
        "bn": "আমি উইকিউপাত্ত থেকে {entities}টি মানুষ, স্থান, দেশ ও রচনা সম্পর্কে {facts}টি তথ্য জানি: কে কখন কোথায় "
              "জন্মেছেন বা মারা গেছেন, রাজধানী, ভাষা, লেখক, তারিখ ও সংখ্যা। আমি {languages}টি ভাষায় উত্তর দিই, এবং আপন"
              "ি "
              "পরের প্রশ্ন করতে পারেন („আর তিনি কোথায় মারা যান?“)। অনেক তথ্য নেই, তাই আমি প্রায়ই „আমি জানি না“ বলি।",
        "am": "ከዊኪዳታ ስለ {entities} ሰዎች፣ ቦታዎች፣ አገሮችና ሥራዎች {facts} እውነታዎችን አውቃለሁ። በ{languages} ቋንቋዎች "
              "እመልሳለሁ፤ ተከታይ ጥያቄም መጠየቅ ይችላሉ («እሱስ የት ሞተ?»)። ብዙ እውነታዎች ስለሌሉ ብዙ ጊዜ «አላውቅም» እላለሁ።",
        "nl": "Ik ken {facts} feiten over {entities} personen, plaatsen, landen en werken uit Wikidata: "
              "waar en wanneer iemand geboren werd of stierf, hoofdsteden, talen, auteurs, leden, data en getallen. Ik "
              "antwoord in "
              "{languages} talen en u kunt doorvragen (‘en waar stierf hij?’). Veel feiten ontbreken, dus zeg ik vaak "
              "‘Ik weet het niet’ in plaats van te gokken.",
    },
}
for _key, _table in SEED_MESSAGES.items():
    NEW_MESSAGES[_key].update(_table)
