"""The Roses server: ASGI app, storage, auth, notifications, clocks."""
