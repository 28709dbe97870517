// The floor under any mailbox reader built on GMime: read the mailbox the
// way urlsift's input stage does (one parser over the file, mbox format, a
// message with no header block skipped to the next `From ` line), build
// each message's tree and free it, and do nothing else. bench/run times it
// beside `urlsift extract --input mbox`; what urlsift adds is the
// difference.
//
//   mime_bound MAILBOX        prints the number of messages read

#include <gmime/gmime.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace {

/// The offset of the next line that starts with `From ` after `from`, or -1.
gint64 next_from_line(GMimeStream* stream, gint64 from) {
    if (g_mime_stream_seek(stream, from, GMIME_STREAM_SEEK_SET) != from) return -1;
    char buffer[65536];
    char previous = '\0';
    gint64 at = from;
    for (gssize n; (n = g_mime_stream_read(stream, buffer, sizeof buffer)) > 0; at += n) {
        // A `From ` split across two reads is missed; the next one is taken.
        for (gssize i = 0; i + 5 <= n; ++i) {
            const char before = i == 0 ? previous : buffer[i - 1];
            if (before == '\n' && at + i > from && std::memcmp(buffer + i, "From ", 5) == 0) return at + i;
        }
        previous = buffer[n - 1];
    }
    return -1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: mime_bound MAILBOX\n");
        return 2;
    }
    const int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        std::perror(argv[1]);
        return 2;
    }
    g_mime_init();
    GMimeStream* file = g_mime_stream_fs_new(fd);
    GMimeStream* rest = nullptr;
    GMimeParser* parser = g_mime_parser_new_with_stream(file);
    g_mime_parser_set_format(parser, GMIME_FORMAT_MBOX);
    long messages = 0;
    gint64 last = -1;  // the `From ` line of the message given up on last
    while (!g_mime_parser_eos(parser)) {
        if (GMimeMessage* m = g_mime_parser_construct_message(parser, nullptr)) {
            ++messages;
            g_object_unref(m);
            continue;
        }
        // GMime's offsets count from the start of the file, in a substream too.
        const gint64 marker = g_mime_parser_get_mbox_marker_offset(parser);
        if (marker <= last) break;
        last = marker;
        const gint64 next = next_from_line(file, marker);
        if (next < 0) break;
        if (rest != nullptr) g_object_unref(rest);
        rest = g_mime_stream_substream(file, next, -1);
        g_mime_parser_init_with_stream(parser, rest);
    }
    std::printf("%ld messages\n", messages);
    g_object_unref(parser);
    if (rest != nullptr) g_object_unref(rest);
    g_object_unref(file);
    return 0;
}
