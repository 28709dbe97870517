# Waiting on a tmux pane, for the tests that drive a terminal program in
# tmux (sourced). The test defines pane (prints the pane it watches) and
# fail (says what went wrong and marks the test failed).

# wait_for WHAT COMMAND...: runs COMMAND until it succeeds, for 10 s at most.
wait_for() {
    local what=$1 i
    shift
    for ((i = 0; i < 200; i++)); do
        "$@" && return 0
        sleep 0.05
    done
    fail "timed out waiting for $what; the pane shows:"
    pane >&2
    return 1
}
shows() { pane | grep -qF -- "$1"; }
hides() { ! pane | grep -qF -- "$1"; }
exists() { [[ -e $1 ]]; }
