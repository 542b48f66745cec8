# The OBS shim: built, tested and installed here (owned by the plugin work).
.PHONY: plugin test-shim test-obs install uninstall
plugin:
test-shim:
test-obs:
install:
uninstall:
