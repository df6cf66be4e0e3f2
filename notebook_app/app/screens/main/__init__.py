"""The notebook's one working screen (:mod:`.screen`) and the controllers it holds, one module each."""
