"""The site's own date formats (settings.FORMAT_MODULE_PATH): `en/` for English pages."""
