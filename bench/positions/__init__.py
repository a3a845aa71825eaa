"""Positions the benchmarks and tests play: ``reference.jsonl``
(``piramida.env.position_sets.reference_position``: balls scattered at
random, clear of the pocket mouths) and
``played.jsonl`` (played.py: from seeded frames of greedy against greedy,
balls where real play leaves them). Read them with
``piramida.env.position_sets`` (``SETS``, ``load_positions``)."""
