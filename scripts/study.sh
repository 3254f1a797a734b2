# What the long study scripts share (sourced: source "$(dirname "$0")/study.sh").
#
# folder_argument DEFAULT "$@": the one argument of a study, its output folder, set as
# $folder. -h or --help prints the script's header comment; anything else that starts
# with -, or a second argument, is refused in one line, so a mistyped option never starts
# the study.
#
# fcsim ARGS: this checkout's fcsim (python -m fcsim, the repository first on the import
# path), not whichever fcsim is first on PATH (from a clone, another checkout's).
study_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

fcsim() {
    PYTHONPATH="$study_root${PYTHONPATH:+:$PYTHONPATH}" python -m fcsim "$@"
}

folder_argument() {
    local default=$1 name
    name=$(basename "$0")
    shift
    case "${1:-}" in
        -h|--help)
            sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p;}' "$0"
            exit 0 ;;
        -*)
            echo "$name: unknown option '$1': the one argument is the output folder (--help)" >&2
            exit 2 ;;
    esac
    if [ $# -gt 1 ]; then
        echo "$name: one output folder, not $# arguments (--help)" >&2
        exit 2
    fi
    folder=${1:-$default}
}
