"""The memory tool in guard mode: the doctor's security rules on every agent write.

The one opt-in exception to the contract besides review (spec §6): a call
whose new text a security rule flags is refused, with an error naming the
rule, and the file is left unchanged. The input schema is the tool's own,
byte for byte; the description gains one sentence, so an agent knows why a
write may come back refused.
"""

from __future__ import annotations

from notebook_app.core.guard.rules import guard_refusal
from notebook_app.core.memory.plan import Rejection, parse_request
from notebook_app.core.memory.tool import DESCRIPTION, MemoryTool, ToolResult

GUARD_SENTENCE = (
    "This server runs in guard mode: a write whose text holds a secret, hidden characters or "
    "prompt-injection phrasing is refused with an error naming the rule, and nothing is written."
)


class GuardedMemoryTool(MemoryTool):
    """``memory`` with the guard: refused calls are results with ``refused_by`` set, never exceptions."""

    description = f"{DESCRIPTION} {GUARD_SENTENCE}"

    def _call(self, args: object) -> ToolResult:
        """Refuse before the write; the base ``call`` records a refused call like a failed one, rule named."""
        request = parse_request(args)
        if not isinstance(request, Rejection):
            refusal = guard_refusal(request)
            if refusal is not None:
                rule, message = refusal
                return ToolResult(message, is_error=True, refused_by=rule)
        return super()._call(args)
