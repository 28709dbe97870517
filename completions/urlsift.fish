# fish completion for urlsift, installed as
# share/fish/vendor_completions.d/urlsift.fish. The option lists follow
# `urlsift COMMAND --help`; tests/packaging/completion_sync.sh fails when
# they drift apart.

function __urlsift_no_command --description 'urlsift has no command yet'
    set -l words (commandline -opc)
    test (count $words) -eq 1
end

function __urlsift_command --description 'the command is one of the arguments'
    set -l words (commandline -opc)
    test (count $words) -ge 2; and contains -- $words[2] $argv
end

# Completes a comma-separated list. The first argument holds the choices
# that stand alone ("all none"); the rest can be combined: the ones before
# the last comma stay, and the last is completed from those not yet named.
function __urlsift_list
    set -l alone (string split ' ' -- $argv[1])
    set -l token (commandline -ct | string replace -r -- '^--[^=]*=' '')
    set -l named (string match -r -- '^.*,' "$token")
    if test -z "$named"
        printf '%s\n' $alone
    end
    set -l given (string split , -- "$named")
    for choice in $argv[2..-1]
        contains -- $choice $given; or echo "$named$choice"
    end
end

# No file names unless a command reads files.
complete -c urlsift -f

complete -c urlsift -n __urlsift_no_command -s h -l help -d 'show this help and exit'
complete -c urlsift -n __urlsift_no_command -s V -l version -d 'show the version and exit'
complete -c urlsift -n __urlsift_no_command -a extract -d 'list the URLs found in files or standard input'
complete -c urlsift -n __urlsift_no_command -a rewrite -d 'copy text through with its references made absolute'
complete -c urlsift -n __urlsift_no_command -a resolve -d 'resolve references against a base URL'
complete -c urlsift -n __urlsift_no_command -a report -d 'count the references in many files: hosts, domains, duplicates'
complete -c urlsift -n __urlsift_no_command -a pick -d 'choose a URL on a full-screen list and open, copy or print it'

# Any charset ICU knows is accepted; these are the ones the tool suggests
# for a name it does not know.
set -l encodings 'utf-8 latin1 windows-1252 iso-8859-15 utf-16le utf-16be shift_jis euc-jp gb18030 koi8-r'

# extract
set -l extract '__urlsift_command extract'
complete -c urlsift -n $extract -F
complete -c urlsift -n $extract -s h -l help -d 'show this help and exit'
complete -c urlsift -n $extract -s f -l format -x -a 'text jsonl csv tsv' -d 'output format'
complete -c urlsift -n $extract -s n -l line-number -d 'prefix each URL with its line number'
complete -c urlsift -n $extract -s H -l with-filename -d 'prefix each URL with its file name'
complete -c urlsift -n $extract -l no-filename -d 'never prefix file names'
complete -c urlsift -n $extract -s 0 -l null -d 'end records with NUL instead of newline'
complete -c urlsift -n $extract -s Z -l null-after-name -d 'put a NUL after each file name'
complete -c urlsift -n $extract -s c -l count -d 'print only the number of URLs found per file'
complete -c urlsift -n $extract -s l -l files-with-matches -d 'print only the names of files with a URL'
complete -c urlsift -n $extract -s L -l files-without-match -d 'print only the names of files without a URL'
complete -c urlsift -n $extract -s q -l quiet -d 'print nothing; stop at the first URL found'
complete -c urlsift -n $extract -s m -l max-count -x -d 'stop reading a file after NUM URLs'
complete -c urlsift -n $extract -s s -l no-messages -d 'no messages about files that cannot be read'
complete -c urlsift -n $extract -l color -x -a 'auto always never' -d 'colour file names, line numbers and URLs'
complete -c urlsift -n $extract -l line-buffered -d 'write each line at once'
complete -c urlsift -n $extract -s u -l unique -d 'print each URL once'
complete -c urlsift -n $extract -l warnings -d 'note Section 7 warnings on stderr'
complete -c urlsift -n $extract -l raw -d 'print the text as written between the wrappers'
complete -c urlsift -n $extract -l relative -d 'without --base, list relative references too'
complete -c urlsift -n $extract -l unwrap -d 'list links rewritten by mail security gateways as their targets'
complete -c urlsift -n $extract -l binary -x -a 'skip text' -d 'files with a NUL byte'
complete -c urlsift -n $extract -l encoding -x -a $encodings -d 'charset of the input'
complete -c urlsift -n $extract -s z -l search-zip -d 'read gzip, bzip2, xz and zstd files as text'
complete -c urlsift -n $extract -l input -x -a 'text markdown html code mail mbox auto' -d 'what the input is'
complete -c urlsift -n $extract -l headers -d 'also list URLs from mail headers'

# rewrite
set -l rewrite '__urlsift_command rewrite'
complete -c urlsift -n $rewrite -F
complete -c urlsift -n $rewrite -s h -l help -d 'show this help and exit'
complete -c urlsift -n $rewrite -s i -l in-place -d 'edit the files in place; -iSUFFIX keeps a backup'
complete -c urlsift -n $rewrite -l follow-symlinks -d 'with -i, edit the file a symbolic link names'
complete -c urlsift -n $rewrite -l dry-run -d 'list each file that would change'
complete -c urlsift -n $rewrite -l diff -d 'print a unified diff of what would change'
complete -c urlsift -n $rewrite -l only -x -a '(__urlsift_list all relative abbreviated joined)' -d 'what to rewrite'
complete -c urlsift -n $rewrite -l style -x -a 'plain angle' -d 'angle: wrap bare URLs in <...> too'
complete -c urlsift -n $rewrite -l binary -x -a 'skip text' -d 'files with a NUL byte, with -i or --diff'
complete -c urlsift -n $rewrite -l encoding -x -a $encodings -d 'charset of the input and the output'
complete -c urlsift -n $rewrite -l input -x -a 'text markdown html code mail mbox auto' -d 'what the input is'

# report
set -l report '__urlsift_command report'
complete -c urlsift -n $report -F
complete -c urlsift -n $report -s h -l help -d 'show this help and exit'
complete -c urlsift -n $report -s f -l format -x -a 'text json markdown html csv tsv' -d 'output format'
complete -c urlsift -n $report -l table -x -a 'scheme host domain wrapper form warning ip_host punycode_host lookalike_host gateway anchor_mismatch part_kind relative url duplicate files' -d 'the table csv and tsv write'
complete -c urlsift -n $report -s o -l output -r -F -d 'write the report to FILE'
complete -c urlsift -n $report -l partial -d 'write a partial report for --merge'
complete -c urlsift -n $report -l merge -d 'the operands are partial reports: add them up'
complete -c urlsift -n $report -s j -l jobs -x -d 'threads (default 0: one per processor)'
complete -c urlsift -n $report -l top -x -d 'rows of each table in the report (0: all)'
complete -c urlsift -n $report -l exact-urls -x -d 'count distinct URLs exactly up to N, then estimate them'
complete -c urlsift -n $report -l no-timestamp -d 'leave out the time the report was made'
complete -c urlsift -n $report -l progress -d 'show progress on stderr even when it is not a terminal'
complete -c urlsift -n $report -l input -x -a 'text markdown html code mail mbox auto' -d 'what the inputs are'
complete -c urlsift -n $report -l binary -x -a 'skip text' -d 'files with a NUL byte'
complete -c urlsift -n $report -l encoding -x -a $encodings -d 'charset of the input'
complete -c urlsift -n $report -s z -l search-zip -d 'read gzip, bzip2, xz and zstd files as text'

# Which files to read: extract, rewrite and report share them.
set -l walk '__urlsift_command extract rewrite report'
complete -c urlsift -n $walk -s r -l recursive -d 'read the files under each DIR'
complete -c urlsift -n $walk -l include -x -d 'read only files whose name matches GLOB'
complete -c urlsift -n $walk -l exclude -x -d 'skip files whose name matches GLOB'
complete -c urlsift -n $walk -s g -l glob -x -d 'under -r, read only what matches GLOB; !GLOB skips it'
complete -c urlsift -n $walk -l hidden -d 'under -r, read hidden files and directories too'
complete -c urlsift -n $walk -l no-ignore -d 'under -r, read what .gitignore and .ignore leave out'

# pick
set -l pick '__urlsift_command pick'
complete -c urlsift -n $pick -F
complete -c urlsift -n $pick -s h -l help -d 'show this help and exit'
complete -c urlsift -n $pick -l command -x -a '(__fish_complete_command)' -d 'open the URL with CMD'
complete -c urlsift -n $pick -l print -d 'print the URL chosen instead of opening it'
complete -c urlsift -n $pick -l input -x -a 'text markdown html code mail mbox auto' -d 'what the input is'
complete -c urlsift -n $pick -l headers -d 'also list URLs from mail headers'

# --version on every command.
complete -c urlsift -n '__urlsift_command extract rewrite resolve report pick' -s V -l version -d 'show the version and exit'

# The scanning options extract, rewrite and report share.
set -l scan '__urlsift_command extract rewrite report pick'
complete -c urlsift -n $scan -l base -x -d 'resolve relative references against URL'
complete -c urlsift -n $scan -l resolver -x -a 'rfc3986 rfc2396 browser' -d 'resolution rules'
complete -c urlsift -n $scan -l normalize -d 'normalize URLs (Section 6)'
complete -c urlsift -n $scan -l hyphen -x -a 'keep drop' -d 'a hyphen at a line break inside a URL'
complete -c urlsift -n $scan -l max-url-length -x -d 'longest URL in bytes'
complete -c urlsift -n $scan -l abbrev -x -a "(__urlsift_list 'all none' www ftp gopher news wais domain email ipv4)" -d 'abbreviations to complete'
complete -c urlsift -n $scan -l abbrev-scheme -x -a 'http https' -d 'scheme for completed host names'
complete -c urlsift -n $scan -l literal-brackets -d 'read <www.x.org/p> as a path under --base'
complete -c urlsift -n $scan -l base-root -r -a '(__fish_complete_directories)' -d 'the directory --base is the URL of'
complete -c urlsift -n $scan -l max-memory -x -d 'memory one document, record or message may take'

# resolve: its operands are references, not files.
set -l resolve '__urlsift_command resolve'
complete -c urlsift -n $resolve -s h -l help -d 'show this help and exit'
complete -c urlsift -n $resolve -s b -l base -x -d 'base URL to resolve against'
complete -c urlsift -n $resolve -l resolver -x -a 'rfc3986 rfc2396 browser' -d 'resolution rules'
complete -c urlsift -n $resolve -l normalize -d 'normalize results (Section 6)'
complete -c urlsift -n $resolve -l max-url-length -x -d 'longest reference in bytes'
complete -c urlsift -n $resolve -s f -l format -x -a 'text jsonl' -d 'output format'
