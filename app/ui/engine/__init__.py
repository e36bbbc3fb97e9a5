"""The speech engine as the studio sees it: the Qt bridge to its client, starting and restarting it, its status, and its settings page."""
