"""The chat: the Gradio UI (:mod:`chat.ui`), rendering a turn (:mod:`chat.render`), the
user-facing messages and their gettext catalogs (:mod:`chat.messages`, ``chat/locale/``,
maintained with :mod:`chat.catalogs`), the example questions (:mod:`chat.examples`) and the
browser sessions (:mod:`chat.sessions`).  The pipeline is :mod:`qa`, the session log and
settings are :mod:`service` and :mod:`core`, the ``kgqa`` command line is :mod:`cli`."""
