"""A loopback stand-in for the Anthropic Messages API that records what Claude Code sends.

Claude Code is pointed at it with ``ANTHROPIC_BASE_URL=http://127.0.0.1:PORT``.
Every request (method, path, JSON body) is kept in :attr:`Recorder.requests`;
``POST /v1/messages`` is answered like the API answers it (a server-sent
event stream when the body asks ``"stream": true``, else one JSON message)
with a one-word reply, so the program finishes its turn normally. Standard
library only: it runs inside the driver, beside the real binary.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLY = "ok"


def _message(model: str) -> dict[str, object]:
    return {
        "id": "msg_recorder",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": REPLY}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def _events(model: str) -> list[tuple[str, dict[str, object]]]:
    start = _message(model) | {"content": [], "stop_reason": None}
    return [
        ("message_start", {"type": "message_start", "message": start}),
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        ),
        (
            "content_block_delta",
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": REPLY}},
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]


class Recorder:
    def __init__(self) -> None:
        self.requests: list[dict[str, object]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # quiet: the driver prints JSON only
                pass

            def _body(self) -> object:
                size = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(size) if size else b""
                try:
                    return json.loads(raw) if raw else None
                except ValueError:
                    return raw.decode("utf-8", "replace")

            def _send(self, status: int, data: bytes, kind: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802
                body = self._body()
                recorder.requests.append({"method": "POST", "path": self.path, "body": body})
                path = self.path.split("?")[0]
                model = body.get("model", "claude") if isinstance(body, dict) else "claude"
                if path.endswith("/v1/messages/count_tokens"):
                    self._send(200, b'{"input_tokens": 1}')
                elif path.endswith("/v1/messages"):
                    if isinstance(body, dict) and body.get("stream"):
                        stream = "".join(
                            f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in _events(model)
                        )
                        self._send(200, stream.encode(), "text/event-stream")
                    else:
                        self._send(200, json.dumps(_message(model)).encode())
                else:
                    self._send(404, b'{"type": "error", "error": {"type": "not_found_error", "message": "recorder"}}')

            def do_GET(self) -> None:  # noqa: N802
                recorder.requests.append({"method": "GET", "path": self.path, "body": None})
                self._send(404, b'{"type": "error", "error": {"type": "not_found_error", "message": "recorder"}}')

            do_HEAD = do_GET  # noqa: N815

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> Recorder:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
