"""Reading a question: its language, words, shape, numbers, names and the answer type it asks for,
once per question, for every backend and decision (the ``read`` stage)."""
