"""piramida.eval: matches, tournaments, ratings, statistics (docs/design.md §7)."""
