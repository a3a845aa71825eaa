"""The web page of ``piramida serve`` (docs/ui.md, docs/design.md §7b).

``api.py`` holds the operations as plain functions (a request's JSON
object in, a JSON object out, a one-line ``PiramidaError`` for bad input);
``app.py`` is the Starlette application that serves them under ``/api/``
with the page in ``static/`` (plain HTML, JavaScript and CSS, no build step,
nothing from the network); ``server.py`` runs it on uvicorn.
"""

from __future__ import annotations
