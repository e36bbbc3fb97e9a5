"""The studio's window: the menus and their rules, the open project and its session, messages, the welcome screen, exports."""
