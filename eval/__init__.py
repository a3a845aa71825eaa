"""piramida.eval: matches, tournaments, ratings, statistics (DESIGN.md §7)."""
