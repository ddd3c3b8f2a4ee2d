"""Results and reports: the schema-versioned RunResult, plots, and the self-contained HTML page."""
