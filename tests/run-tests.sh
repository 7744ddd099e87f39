#!/bin/sh
# Runs every Check test binary given, then prints one closing line "N passed, N failed"
# counting the checks of all of them. Exits non-zero when any binary failed.
passed=0
failed=0
bad=0
for t in "$@"; do
    out=$("$t" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    # Check's summary: "100%: Checks: 12, Failures: 0, Errors: 0"
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks: [0-9]+' | tail -n 1)
    if [ -n "$line" ]; then
        n=$(printf '%s' "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
        f=$(printf '%s' "$line" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
        e=$(printf '%s' "$line" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
        passed=$((passed + n - f - e))
        failed=$((failed + f + e))
    fi
    if [ "$rc" -ne 0 ]; then
        echo "FAILED: $t (exit $rc)"
        bad=$((bad + 1))
        [ -z "$line" ] && failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$bad" -eq 0 ] && [ "$failed" -eq 0 ]
