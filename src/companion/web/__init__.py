"""The browser side of the web app: pages, templates, static files, tile art and the i18n
catalogue. The app itself is put together in `companion.api.app`."""
