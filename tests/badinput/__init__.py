"""The named bad-input corpus (manifest.json, cases/) and its harness."""
