"""Settings: the studio's (each declared once over QSettings) and a project's, with their dialogs."""
