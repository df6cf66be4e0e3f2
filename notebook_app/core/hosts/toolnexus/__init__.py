"""toolnexus, the contract: its one object (:mod:`.host`) and where its Python package differs (:mod:`.python`)."""
