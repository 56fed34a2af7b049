"""A session that asks too fast gets a localized "slow down" message, not an answer."""

from __future__ import annotations

from chat.asking import rate_limited_turn
from chat.messages import turn_message
from chat.render import render_html
from service.ratelimit import RateLimiter


def test_rate_limited_turn_is_localized_and_unanswered():
    turn = rate_limited_turn("Wer ist Einstein?", "de", 2.2)
    assert not turn.answered and turn.status == "rate_limited"
    assert "3 s" in turn_message(turn) and "warten" in turn_message(turn)
    html = render_html(turn)
    assert "kgqa-status-rate_limited" in html and "How I found" not in html


def test_limiter_blocks_a_burst_per_session_only():
    limiter = RateLimiter(per_minute=30, burst=2)
    assert limiter.acquire("a") == 0 and limiter.acquire("a") == 0
    assert limiter.acquire("a") > 0
    assert limiter.acquire("b") == 0
