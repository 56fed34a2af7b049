"""Run the real chat UI (``chat.ui``) over the tiny KG with a scripted backend that answers
every question; for tests that need the app as a separate process (kill -9).

    python -m tests.service.chat_app_proc PORT LOG_PATH
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")


def main(port: int, log_path: Path) -> None:
    """Build the tiny pipeline, the session log and the chat, then serve (blocks)."""
    from backends.fake import FakeBackend
    from chat.ui import build_app, launch_app
    from core.settings import load_settings
    from qa.candidate import Candidate
    from service.session_log import SessionLog
    from tests.service.helpers import CAPITAL, tiny_pipeline

    settings = load_settings(os.environ, host="127.0.0.1", port=port, log_path=log_path, validator=False,
                             rate_limit_per_minute=0)  # a load from one address: per-client limits off
    pipeline = tiny_pipeline(backend=FakeBackend(lambda q, lang: [Candidate(CAPITAL, 0.9)]))
    app = build_app(pipeline, settings, SessionLog(log_path))
    launch_app(app, settings)


if __name__ == "__main__":
    main(int(sys.argv[1]), Path(sys.argv[2]))
