"""Statistics of a strategy: seeded simulation, the exact score distribution, summaries, plots."""
