# md2scd.awk: a page of docs/user/ (Markdown) -> scdoc source, from which
# scdoc makes the man page. The pages keep to a small subset of Markdown, so
# that the man pages and the pages users read on the web are one text:
#   # name(section)            first line: the page's name and section
#   ## HEADING, ### Subheading  sections and subsections
#   paragraphs, with **bold**, *italic*, `code` (shown bold) and [text](link)
#   - item (continued on lines indented by two spaces); 1. numbered item
#   TERM\                      a term ending in a backslash (a hard line break
#   description...             in Markdown): the lines after it, up to a blank
#                              line, are its description, indented
#   ``` fenced blocks ```      shown as they are
# Anything else that scdoc would read as markup is escaped; a table (a line
# starting with |) is refused, since a man page cannot show one well.
# Usage: awk -v footer="recorder-kit 0.1.0" -f md2scd.awk PAGE.md > PAGE.scd

function fail(msg) {
    printf "md2scd: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
    failed = 1
    exit 1
}

# Every backslash doubled (by hand: awks disagree on backslashes in gsub's
# replacement text).
function backslashes(s,    out, i) {
    out = ""
    while ((i = index(s, "\\")) > 0) {
        out = out substr(s, 1, i) "\\"
        s = substr(s, i + 1)
    }
    return out s
}

# Text outside markup: scdoc's own markup characters and backslashes escaped.
function plain(s) {
    s = backslashes(s)
    gsub(/\*/, "\\*", s)
    gsub(/_/, "\\_", s)
    gsub(/`/, "\\`", s)
    return s
}

# s starts with mark: the text up to the next mark, converted (as plain text
# when raw), between two tags; what follows is left in the global rest.
function span(s, mark, tag, raw,    n, j, inner, after, out) {
    n = length(mark)
    j = index(substr(s, n + 1), mark)
    if (!j)
        fail("unclosed " mark)
    inner = substr(s, n + 1, j - 1)
    after = substr(s, n + j + n)
    out = tag (raw ? plain(inner) : inline(inner)) tag
    rest = after
    return out
}

# One line of Markdown inline markup -> scdoc's.
function inline(s,    out, c, text, m) {
    out = ""
    while (s != "") {
        c = substr(s, 1, 1)
        if (c == "\\" && length(s) > 1) {          # a Markdown escape: the character itself
            out = out plain(substr(s, 2, 1))
            s = substr(s, 3)
        } else if (c == "`") {
            out = out span(s, "`", "*", 1)
            s = rest
        } else if (substr(s, 1, 2) == "**") {
            out = out span(s, "**", "*", 0)
            s = rest
        } else if (c == "*") {
            out = out span(s, "*", "_", 0)
            s = rest
        } else if (c == "[" && match(s, /^\[[^]]*\]\([^)]*\)/)) {
            m = substr(s, 1, RLENGTH)
            text = substr(m, 2, index(m, "]") - 2)
            out = out inline(text)
            s = substr(s, RLENGTH + 1)
        } else {
            match(s, /^[^\\`*[]+/)
            if (RLENGTH <= 0)
                RLENGTH = 1
            out = out plain(substr(s, 1, RLENGTH))
            s = substr(s, RLENGTH + 1)
        }
    }
    return out
}

# A line of running text: a first character scdoc would take for a table,
# list, comment or numbered list is escaped.
function textline(s,    t) {
    t = inline(s)
    if (t ~ /^[|:\[\];.-]/)
        t = "\\" t
    return t
}

FNR == 1 {
    if (!match($0, /^# [A-Za-z0-9_.-]+\([0-9]\)$/))
        fail("the first line must be '# name(section)'")
    printf "%s \"%s\"\n", substr($0, 3), footer
    next
}

fence {
    if ($0 ~ /^```/) {
        print "```"
        fence = 0
    } else {
        print backslashes($0)
    }
    next
}

/^```/ { print "```"; fence = 1; term = 0; next }

/^[ \t]*$/ { print ""; term = 0; next }

/^<!--.*-->$/ { next }

/^\|/ { fail("tables are not supported in the user pages") }

/^## / { print "# " substr($0, 4); next }
/^### / { print "## " substr($0, 5); next }
/^#/ { fail("only ## and ### headings, after the first line") }

/^- / { print "- " inline(substr($0, 3)); next }
/^[0-9]+\. / { sub(/^[0-9]+\. /, ""); print ". " inline($0); next }
/^  [^ ]/ { print "  " inline(substr($0, 3)); next }

/\\$/ {
    print textline(substr($0, 1, length($0) - 1))
    term = 1
    next
}

term { print "\t" inline($0); next }

{ print textline($0) }

END {
    if (fence && !failed)
        fail("unclosed ``` block")
}
