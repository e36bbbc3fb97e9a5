"""The Script tab: the lines table and its columns, takes and delivery, rendering and take QA from the studio, the gaps after an import."""
