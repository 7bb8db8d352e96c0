#!/bin/sh
# Re-extract the messages of gongzhu, merge them into every catalogue and compile the .mo files.
#
#   tools/i18n.sh            extract + update + compile (needs Babel: pip install -e ".[dev]")
#   tools/i18n.sh compile    only compile the .po files (after editing a translation)
#
# The compiled .mo files are committed: an installed gongzhu needs no Babel.
# tests/i18n/test_i18n.py checks that every message is translated and that the .mo files
# are up to date with the .po files.
set -eu
cd "$(dirname "$0")/.."
PYBABEL=${PYBABEL:-pybabel}
LOCALE=src/gongzhu/i18n/locale
POT=$LOCALE/gongzhu.pot
if [ "${1:-}" != compile ]; then
    "$PYBABEL" extract --no-location --sort-output --omit-header \
        -k _ -k N_ -k gettext -k ngettext:1,2 -k P_:1c,2 \
        -o "$POT" src/gongzhu
    for po in "$LOCALE"/*/LC_MESSAGES/gongzhu.po; do
        "$PYBABEL" update --no-fuzzy-matching --ignore-obsolete \
            -D gongzhu -i "$POT" -o "$po" -l "$(basename "$(dirname "$(dirname "$po")")")"
    done
fi
for po in "$LOCALE"/*/LC_MESSAGES/gongzhu.po; do
    "$PYBABEL" compile --use-fuzzy -D gongzhu -i "$po" -o "${po%.po}.mo"
done
