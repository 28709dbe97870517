# Turns urlsift's --help text into a manual page (man(7) macros). POSIX awk.
#
# Reads two files: the overview (`urlsift --help`), whose command table names
# each command's page and fills SEE ALSO; then the help to turn into the page
# (the overview again for urlsift(1)). Variables: command (empty for
# urlsift(1)), summary (urlsift(1)'s NAME line), version, date.
#
# Where each part of the help goes:
#
#   Usage: urlsift extract [OPTIONS] ...     SYNOPSIS, with the indented
#          urlsift ...                       lines right after it
#   paragraphs of prose                      DESCRIPTION
#   Heading:  (a line of its own), then      Options -> OPTIONS,
#     indented lines, up to the next         Examples -> EXAMPLES,
#     line that is not indented              Commands -> COMMANDS, any other a
#                                            subsection after DESCRIPTION's prose
#   Exit status: ... (a paragraph)           EXIT STATUS
#
# Indented lines are read by their shape:
#
#   "  term   text" (text continued deeper)     a tagged paragraph
#   "  - text" (continued deeper)               a bullet
#   "  $ command" and the lines below it        a verbatim example
#   "  -f [ --format ] arg   text"              in Options: Boost.Program_options'
#                                               table (text continued deeper)
#   any other                                   an indented line of prose

BEGIN {
    # Font marks, put in before escaping and made font escapes after it, so
    # that escaping cannot touch them.
    B = "\001"; I = "\002"; R = "\003"
    sect = "desc"; blk = ""
    name = command == "" ? "urlsift" : "urlsift-" command
}

# --- the overview: the command table ---------------------------------------
FNR == NR {
    if ($0 ~ /^[A-Z][A-Za-z ]*:$/) {
        in_commands = $0 == "Commands:"
    } else if (in_commands && match($0, /^  [a-z][-a-z]*  +/)) {
        ncommands++
        commands[ncommands] = $1
        summaries[$1] = substr($0, RSTART + RLENGTH)
    } else {
        in_commands = 0
    }
    next
}

# --- the help ----------------------------------------------------------------
{
    line = $0
    sub(/[ \t\r]+$/, "", line)
    if (line == "") {
        end_block()
        next
    }
    indent = match(line, /[^ ]/) - 1
    t = substr(line, indent + 1)

    if (indent == 0) {
        if (t ~ /^Usage: /) {
            end_block()
            sect = "synopsis"
            add_synopsis(substr(t, 8))
        } else if (t ~ /^[A-Z][A-Za-z ]*:$/) {
            end_block()
            heading = substr(t, 1, length(t) - 1)
            if (heading == "Options") sect = "options"
            else if (heading == "Examples") sect = "examples"
            else if (heading == "Commands") sect = "commands"
            else {
                sect = "subs"
                put(".SS \"" heading "\"")
            }
        } else if (t ~ /^Exit status: /) {
            end_block()
            sect = "exit"
            start_paragraph()
            put(text(substr(t, 14)))
        } else {
            # Prose goes on in its paragraph (blank lines end one), or
            # starts one in DESCRIPTION.
            if (blk != "para" || (sect != "desc" && sect != "exit")) {
                end_block()
                sect = "desc"
                start_paragraph()
            }
            put(text(t))
        }
    } else if (sect == "synopsis") {
        add_synopsis(t)
    } else if (sect == "options") {
        # Rendered at the end, when the table's description column is known.
        options_table[++options_lines] = line
    } else if (sect == "examples" && (t ~ /^\$ / || blk == "verbatim")) {
        verbatim_line(line)
    } else if (sect == "examples" && !(blk == "row" && indent > item_indent)) {
        example_entry(t)
    } else {
        indented_line(t)
    }
}

# Appends a line to the current section.
function put(s) {
    buf[sect] = buf[sect] s "\n"
}

# Closes what the current block left open.
function end_block() {
    if (blk == "verbatim") put(".EE")
    blk = ""
}

function start_paragraph() {
    end_block()
    put(".PP")
    blk = "para"
}

function indented_line(t) {
    if (indent > item_indent && (blk == "row" || blk == "bullet")) {
        put(text(t))
    } else if (t ~ /^- /) {
        end_block()
        put(".IP \\(bu 2")
        put(text(substr(t, 3)))
        blk = "bullet"
        item_indent = indent
    } else if (match(t, /^[^ ]+  +/)) {
        end_block()
        term = substr(t, 1, RLENGTH)
        sub(/ +$/, "", term)
        put(".TP")
        put(roff(B term R))
        put(text(substr(t, RLENGTH + 1)))
        # A command's row points to its own page.
        if (sect == "commands" && (term in summaries)) {
            put(".br")
            put(roff("See " B "urlsift-" term R "(1)."))
        }
        blk = "row"
        item_indent = indent
    } else {
        if (blk != "indented") {
            end_block()
            put(".PP")
            blk = "indented"
        }
        put(text(t))
    }
}

# Boost.Program_options' table: "  -f [ --format ] arg   text", the text
# continued on lines indented to its column. A long entry can leave a single
# space before its text, or put the text on the next line, so the column is
# read from the whole table: where text starts after a wider gap, or where a
# continuation line starts.
function render_options(    i, l, column, at, spec, desc) {
    column = 0
    for (i = 1; i <= options_lines; i++) {
        l = options_table[i]
        if (l ~ /^  -/) {
            if (match(l, /[^ ]  +[^ ]/)) at = RSTART + RLENGTH - 1
            else continue
        } else {
            at = match(l, /[^ ]/)
        }
        if (column == 0 || at < column) column = at
    }
    sect = "options"
    for (i = 1; i <= options_lines; i++) {
        l = options_table[i]
        if (l !~ /^  -/) {
            sub(/^ +/, "", l)
            put(text(l))
            continue
        }
        if (column > 0) {
            spec = substr(l, 3, column - 3)
            desc = substr(l, column)
        } else {
            spec = substr(l, 3)
            desc = ""
        }
        sub(/ +$/, "", spec)
        put(".TP")
        put(roff(option_names(spec)))
        if (desc != "") put(text(desc))
    }
}

# "-f [ --format ] arg (=text)": the names in bold, the value in italics.
function option_names(spec,    n, tok, i, out) {
    n = split(spec, tok, " ")
    out = ""
    for (i = 1; i <= n; i++) {
        if (tok[i] == "[" || tok[i] == "]") continue
        if (tok[i] ~ /^-/) out = out (out == "" ? "" : ", ") B tok[i] R
        else if (tok[i] ~ /^\(/) out = out " " tok[i]
        else out = out " " I tok[i] R
    }
    return out
}

# "urlsift extract -r -u docs/   what it does": the command in bold.
function example_entry(t,    cmd, note) {
    end_block()
    if (match(t, /  +/)) {
        cmd = substr(t, 1, RSTART - 1)
        note = substr(t, RSTART + RLENGTH)
    } else {
        cmd = t
        note = ""
    }
    put(".TP")
    put(roff(B cmd R))
    put(note == "" ? "\\&" : text(note))
    blk = "row"
    item_indent = indent
}

# A "$ command" and its output, as written, up to the next blank line.
function verbatim_line(line) {
    if (blk != "verbatim") {
        end_block()
        put(".PP")
        put(".EX")
        blk = "verbatim"
        verbatim_indent = indent
    }
    put(roff(substr(line, verbatim_indent + 1)))
}

function add_synopsis(s,    n, w, i, out) {
    n = split(s, w, " ")
    out = ""
    for (i = 1; i <= n; i++) {
        if (w[i] == "urlsift" || (command != "" && w[i] == command) || w[i] ~ /^--?[A-Za-z]/)
            w[i] = B w[i] R
        else
            w[i] = mark_capitals(w[i])
        out = out (i > 1 ? " " : "") w[i]
    }
    synopsis = synopsis roff(out) "\n.br\n"
}

# FILE, DIR, REF ... are placeholders: italics.
function mark_capitals(s,    out) {
    out = ""
    while (match(s, /[A-Z][A-Z]+/)) {
        out = out substr(s, 1, RSTART - 1) I substr(s, RSTART, RLENGTH) R
        s = substr(s, RSTART + RLENGTH)
    }
    return out s
}

# Option names in prose in bold: --base, -n; not the hyphen in "utf-8", a
# lone "--", or "-iSUFFIX".
function mark_options(s,    out, m, lead, rest, is_option) {
    out = ""
    while (match(s, /(^|[ (\[])--?[A-Za-z0-9][-A-Za-z0-9]*/)) {
        m = substr(s, RSTART, RLENGTH)
        rest = substr(s, RSTART + RLENGTH)
        lead = ""
        if (m !~ /^-/) {
            lead = substr(m, 1, 1)
            m = substr(m, 2)
        }
        is_option = m ~ /^--[A-Za-z]/ || (m ~ /^-[A-Za-z0-9]$/ && rest !~ /^[A-Za-z0-9]/)
        out = out substr(s, 1, RSTART - 1) lead (is_option ? B m R : m)
        s = rest
    }
    return out s
}

function text(s) {
    return roff(mark_options(s))
}

# Escapes what roff would read as its own, then turns the font marks into
# font escapes. A line must not start with a control character.
function roff(s) {
    s = replace(s, "\\", "\\e")
    # \- is the character a reader types; a plain - may print as a hyphen.
    s = replace(s, "-", "\\-")
    s = replace(s, "'", "\\(aq")
    s = replace(s, "`", "\\(ga")
    s = replace(s, "^", "\\(ha")
    s = replace(s, "~", "\\(ti")
    s = replace(s, B, "\\fB")
    s = replace(s, I, "\\fI")
    s = replace(s, R, "\\fR")
    if (s ~ /^[.']/) s = "\\&" s
    return s
}

# Literal replacement: sub() and gsub() read & and \ in the replacement
# differently from one awk to another.
function replace(s, from, to,    out, i) {
    out = ""
    while ((i = index(s, from)) > 0) {
        out = out substr(s, 1, i - 1) to
        s = substr(s, i + length(from))
    }
    return out s
}

function see_also(page, last) {
    print ".BR " roff(page) " (1)" (last ? "" : ",")
}

END {
    end_block()
    render_options()
    if (command != "" && !(command in summaries)) {
        print "help-to-man.awk: '" command "' is not in the command table of urlsift --help" > "/dev/stderr"
        exit 1
    }
    if (synopsis == "") {
        print "help-to-man.awk: no Usage: line in the help of '" name "'" > "/dev/stderr"
        exit 1
    }
    print ".\\\" Made from the output of `" (command == "" ? "urlsift" : "urlsift " command) " --help`; edit the help, not this page."
    print ".TH " roff(toupper(name)) " 1 \"" date "\" \"urlsift " version "\" \"User Commands\""
    # URLs and option names must not be hyphenated, nor lines stretched
    # between them.
    print ".nh"
    print ".ad l"
    print ".SH NAME"
    print roff(name) " \\- " roff(command == "" ? summary : summaries[command])
    print ".SH SYNOPSIS"
    printf "%s", synopsis
    print ".SH DESCRIPTION"
    printf "%s%s", buf["desc"], buf["subs"]
    if (buf["commands"] != "") {
        print ".SH COMMANDS"
        printf "%s", buf["commands"]
    }
    if (buf["options"] != "") {
        print ".SH OPTIONS"
        printf "%s", buf["options"]
    }
    if (buf["exit"] != "") {
        print ".SH \"EXIT STATUS\""
        printf "%s", buf["exit"]
    }
    if (buf["examples"] != "") {
        print ".SH EXAMPLES"
        printf "%s", buf["examples"]
    }
    print ".SH \"SEE ALSO\""
    n = 0
    if (command != "") pages[++n] = "urlsift"
    for (i = 1; i <= ncommands; i++)
        if (commands[i] != command) pages[++n] = "urlsift-" commands[i]
    for (i = 1; i <= n; i++) see_also(pages[i], i == n)
}
