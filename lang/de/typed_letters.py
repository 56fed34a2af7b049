"""German letters as they are typed on a keyboard without them (DIN 5007-2's spelling: « ä »
"ae", « ö » "oe", « ü » "ue", « ß » "ss"): « gehoert » is « gehört », « fliesst » « fließt »."""

TYPED_LETTERS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
