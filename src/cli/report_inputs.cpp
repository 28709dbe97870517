// Reading `urlsift report`'s inputs: each file through the input stage and
// the scanner into the report of the thread that reads it, the threads'
// reports put back in input order at the end; the walk that lists the files
// goes on beside them. A WARC or WET file is read record by record, each
// record's payload resolved against the URI it was retrieved from (Section
// 5.1.3).

#include "cli/report_inputs.hpp"

#include "cli/mail_input.hpp"

#include <urlsift/document_scan.hpp>
#include <urlsift/mail.hpp>
#include <urlsift/resolution.hpp>
#include <urlsift/warc.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <stdexcept>
#include <thread>

#include <pthread.h>
#include <signal.h>

namespace urlsift::cli {

namespace {

/// Whether a WARC payload of media type `type` is text to scan: text of
/// any kind, markup, and payloads that do not say.
bool text_payload(std::string_view type) {
    return type.empty() || type.starts_with("text/") || type == "application/xhtml+xml" || type == "application/xml" ||
           type == "application/json" || type == "application/rss+xml" || type == "application/atom+xml";
}

/// SIGINT is the main thread's: its handler sets the stop flag, and a read
/// there that waits (a FIFO, a terminal) ends with EINTR. The threads a run
/// starts block it, and are woken with SIGURG instead, whose handler does
/// nothing (SIGURG is ignored by default, so no one else relies on it).
void block_interrupt() noexcept {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void on_wake(int) {}

/// While it lives, SIGURG interrupts a system call instead of restarting it.
class wake_signal {
public:
    wake_signal() {
        struct sigaction sa {};
        sa.sa_handler = on_wake;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGURG, &sa, &before_);
    }
    wake_signal(const wake_signal&) = delete;
    wake_signal& operator=(const wake_signal&) = delete;
    ~wake_signal() { ::sigaction(SIGURG, &before_, nullptr); }

    /// Makes a read `t` waits in return, so that it sees the stop flag.
    static void wake(std::jthread& t) noexcept { ::pthread_kill(t.native_handle(), SIGURG); }

private:
    struct sigaction before_ {};
};

/// References held to be counted together, their strings copied: a long
/// batch lets report::add start its table lookups ahead of their turn,
/// where one reference at a time waits on memory for each.
class reference_batch {
public:
    /// Holds `r`, to be counted in input `input`.
    void add(std::uint64_t input, const found_reference& r, const reference_context& context) {
        if (size_ == refs_.size()) refs_.emplace_back();
        held& h = refs_[size_++];
        h.input = input;
        h.line = r.line;
        h.wrapper = r.wrapper;
        h.form = r.form;
        h.url = keep(r.url);
        h.part_kind = keep(context.part_kind);
        h.anchor_text = keep(context.anchor_text);
    }
    std::size_t size() const noexcept { return size_; }

    /// Counts the references held into `into`, in the order they came,
    /// and empties the batch. `scratch` is the caller's, reused.
    void count_into(report& into, std::vector<report::pending>& scratch) {
        const std::string_view text = text_;
        const auto view = [text](text_at t) { return text.substr(t.at, t.size); };
        scratch.clear();
        for (std::size_t i = 0; i < size_; ++i) {
            const held& h = refs_[i];
            scratch.push_back({h.input,
                               {view(h.url), h.line, h.wrapper, h.form},
                               {.part_kind = view(h.part_kind), .anchor_text = view(h.anchor_text)}});
        }
        into.add(scratch);
        clear();
    }
    void clear() noexcept {
        size_ = 0;
        text_.clear();
    }

private:
    /// Where a string of a held reference is in the batch's text.
    struct text_at {
        std::size_t at = 0, size = 0;
    };
    /// What report::add reads of a reference, its strings in the text.
    struct held {
        std::uint64_t input = 0, line = 0;
        wrapper_kind wrapper = wrapper_kind::none;
        reference_form form = reference_form::absolute;
        text_at url, part_kind, anchor_text;
    };
    /// Appends `s` to the text, which the counting reads in order, one
    /// stream instead of a string a reference.
    text_at keep(std::string_view s) {
        const text_at t{text_.size(), s.size()};
        text_.append(s);
        return t;
    }

    std::vector<held> refs_; ///< entries are reused
    std::string text_;       ///< their strings, back to back
    std::size_t size_ = 0;   ///< entries of `refs_` in use
};

/// Counts references into a report on a thread of its own, so that reading
/// one large input and counting what it holds take two cores: the reader
/// fills one batch while the counter empties those handed over before it.
/// A few batches may wait, so that a batch slow to count (one of many new
/// URLs) does not hold the reader up. Counting is the same `report::add`,
/// in the same order, so the report is the same.
class counting_thread {
public:
    explicit counting_thread(report& into) : into_(into), thread_([this] {
        block_interrupt();
        run();
    }) {}
    counting_thread(const counting_thread&) = delete;
    counting_thread& operator=(const counting_thread&) = delete;
    ~counting_thread() {
        {
            const std::lock_guard lock(m_);
            done_ = true;
        }
        changed_.notify_all();
        thread_.join();
    }

    /// Hands `r` over to be counted in input `input` of the report.
    void add(std::uint64_t input, const found_reference& r, const reference_context& context) {
        reference_batch& b = filling();
        b.add(input, r, context);
        if (b.size() == batch_size) hand_over();
    }

    /// Returns once every reference handed over is counted: before the
    /// report is read or changed in another way.
    void drain() {
        if (filling().size() > 0) hand_over();
        std::unique_lock lock(m_);
        changed_.wait(lock, [this] { return counted_ == written_; });
        if (failure_) std::rethrow_exception(failure_);
    }

private:
    static constexpr std::size_t batch_size = 2048;
    static constexpr std::size_t ring_size = 8;
    /// A batch is the reader's until it is handed over, then the
    /// counter's until it is counted; on cache lines of its own, so that
    /// the two cores do not trade lines of neighbouring batches back and forth.
    struct alignas(64) slot {
        reference_batch batch;
    };

    /// The reader's: the batch it fills.
    reference_batch& filling() noexcept { return ring_[written_ % ring_size].batch; }

    /// Hands the filling batch over, then waits until the next one is free.
    void hand_over() {
        std::unique_lock lock(m_);
        ++written_;
        changed_.notify_all();
        changed_.wait(lock, [this] { return written_ - counted_ < ring_size || failure_; });
        if (failure_) std::rethrow_exception(failure_);
    }

    void run() {
        std::unique_lock lock(m_);
        for (;;) {
            changed_.wait(lock, [this] { return counted_ < written_ || done_; });
            if (counted_ == written_) return;
            reference_batch& b = ring_[counted_ % ring_size].batch;
            lock.unlock();
            try {
                b.count_into(into_, refs_);
            } catch (...) {
                const std::lock_guard failed(m_);
                if (!failure_) failure_ = std::current_exception();
            }
            lock.lock();
            ++counted_;
            changed_.notify_all();
        }
    }

    report& into_;
    std::array<slot, ring_size> ring_;
    /// The reader's count of batches handed over, and the counter's of
    /// batches counted; both changed under `m_`. The reader alone changes
    /// `written_`, so it reads it without the lock.
    std::size_t written_ = 0, counted_ = 0;
    std::vector<report::pending> refs_; ///< the counter's: a batch as report::add takes it
    std::mutex m_;
    std::condition_variable changed_;
    bool done_ = false; ///< the counter is to end, under `m_`
    std::exception_ptr failure_;
    std::jthread thread_; ///< last: started once the rest is ready
};

/// Reads inputs into a report, one after another.
class input_reader {
public:
    input_reader(const read_settings& s, run_progress& progress) : s_(s), progress_(progress), bases_(*s.bases) {
        mail_ = {.scan = s.scan,
                 .resolve = s.resolve,
                 .base = s.base ? s.base->base() : std::string(),
                 .on_text = [this](std::string_view text) {
                     bytes_ += text.size();
                     progressed(0, text.size());
                 }};
        std::string error;
        // The binary test is made here, after the WARC test: a WARC file's
        // first block may hold binary payloads.
        text_options text = s.text;
        text.binary_as_text = true;
        text.stop = &progress.stop;
        auto source = text_source::open(text, error);
        if (!source) throw std::runtime_error(error);  // the encoding was checked before: not expected
        source_.emplace(std::move(*source));
    }

    /// Counts on a thread of its own from now on (`counter` counts into
    /// the report `read` is given).
    void count_on(counting_thread& counter) { counter_ = &counter; }

    void read(const listed_file& file, report& into) {
        const std::string& path = file.path;
        if (into_ != &into) flush();
        input_ = into.add_input(path);
        into_ = &into;
        bytes_ = 0;
        record_base_.reset();
        line_offset_ = 0;
        progressed(1, 0);
        std::string error;
        ending end = ending::read;
        std::string base_error;
        file_base_ = bases_.for_input(path, base_error);
        if (!base_error.empty()) return finish(0, input_status::failed, base_error);
        if (!reads_mail(s_.input)) {
            end = read_text(file, nullptr, error);
        } else {
            error = read_as_mail(
                path, s_.input, s_.text.decompress, s_.memory.parse_memory,
                [&](mail_message& m, mail_format) { return add_message(m); },
                [&](const std::string* whole, input_kind kind) {
                    std::string text_error;
                    end = read_text(file, whole, text_error, kind);
                    return text_error;
                });
            if (!error.empty()) end = ending::failed;
        }
        if (end == ending::binary) return finish(0, input_status::binary);
        if (end == ending::failed) return finish(bytes_, input_status::failed, error);
        if (progress_.stop) return finish(bytes_, input_status::failed, "interrupted before its end");
        finish(bytes_, input_status::read);
    }

    /// Counts the references held back, and tells the progress counters
    /// what they have not been told: before the report is read.
    void flush() {
        if (held_.size() > 0) held_.count_into(*into_, held_refs_);
        publish_progress();
    }

private:
    enum class ending : unsigned char { read, binary, failed };
    /// References are counted in batches of this many, across inputs.
    static constexpr std::size_t held_size = 256;

    /// Inputs begun and bytes scanned, told to the run's counters a batch
    /// at a time: they are shared with the other workers, whose cores would
    /// take their cache line back and forth for every file.
    void progressed(std::uint64_t inputs, std::uint64_t bytes) {
        unpublished_inputs_ += inputs;
        unpublished_bytes_ += bytes;
        if (unpublished_inputs_ >= 64 || unpublished_bytes_ >= (std::uint64_t{1} << 20)) publish_progress();
    }
    void publish_progress() {
        if (unpublished_inputs_ > 0) progress_.inputs_done += unpublished_inputs_;
        if (unpublished_bytes_ > 0) progress_.bytes_scanned += unpublished_bytes_;
        unpublished_inputs_ = unpublished_bytes_ = 0;
    }

    /// Records how the input ended, once the counter has counted every
    /// reference handed over: the report changes on one thread at a time.
    /// References held back here are counted later, which leaves what
    /// this records as it is.
    void finish(std::uint64_t bytes, input_status status, std::string error = {}) {
        if (counter_ != nullptr) counter_->drain();
        into_->finish_input(input_, bytes, status, std::move(error));
    }

    /// Reads `path` as text (or `whole`, its bytes when they were read
    /// already): a WARC file record by record, anything else through the
    /// scanner. `error` says why it failed.
    ending read_text(const listed_file& file, const std::string* whole, std::string& error,
                     std::optional<input_kind> decided = std::nullopt) {
        scanner& sc = fresh_scanner();
        std::optional<warc_reader> warc;
        std::string html;  // an HTML payload, read whole for the parser
        bool first = true, binary = false;
        // A Markdown or HTML document is read whole, for its parser.
        const bool sniff = !decided && needs_head(s_.input, file.path);
        input_kind kind = decided ? *decided : sniff ? input_kind::text : decide_input(s_.input, file.path, {});
        document_.clear();
        const auto take = [&](std::string_view text) {
            if (progress_.stop) return false;
            progressed(0, text.size());
            if (first) {
                first = false;
                if (sniff && !(s_.warc && warc_reader::starts_warc(text))) kind = decide_input(s_.input, file.path, text);
                if (s_.warc && warc_reader::starts_warc(text)) {
                    warc.emplace(warc_handler{
                        .record = [&](const warc_record& r) { return start_record(r, html); },
                        .payload = [&](std::string_view p) {
                            bytes_ += p.size();
                            if (in_html_ && !s_.memory.holds(html.size() + p.size())) {
                                // Too large to hold for the parser: read as it streams.
                                in_html_ = false;
                                fresh_scanner().feed(html);
                                std::string().swap(html);
                            }
                            if (in_html_) html += p;
                            else sc.feed(p);
                            return true;
                        },
                        .record_end = [&] {
                            if (in_html_) add_document(html, document_format::html);
                            else sc.finish();
                        }});
                } else if (!s_.text.binary_as_text && source_->looks_binary(text)) {
                    binary = true;
                    return false;
                }
            }
            if (warc) return warc->feed(text);
            bytes_ += text.size();
            if (kind != input_kind::text && !s_.memory.holds(document_.size() + text.size())) {
                // Too large to hold for the parser: read as it streams.
                kind = input_kind::text;
                sc.feed(document_);
                std::string().swap(document_);
            }
            if (kind != input_kind::text) document_.append(text);
            else sc.feed(text);
            return true;
        };
        // `take` goes by reference: no allocation a file.
        if (whole != nullptr) {
            take(*whole);
        } else if (const text_read got = source_->read_file(file.path, std::ref(take));
                   got.what == text_read::status::failed) {
            error = got.error;
            return ending::failed;
        }
        if (binary) return ending::binary;
        if (progress_.stop) return ending::read;
        if (!warc && kind != input_kind::text) {
            add_document(document_, *document_format_of(kind), file.path);
        } else if (!warc) {
            sc.finish();
        } else if (!warc->finish()) {
            error = "WARC: " + warc->error();
            return ending::failed;
        }
        return ending::read;
    }

    /// The references of a message, each resolved against the base the
    /// message gives its part (Section 5.1), else --base.
    bool add_message(const mail_message& m) {
        scan_message(m, mail_, [this](mail_reference& r) {
            // First seen at a line of the file, not of the decoded part.
            if (r.input_line != 0) r.ref.line = r.input_line;
            return count(r.ref, {.part_kind = r.part != nullptr ? std::string_view(r.part->content_type) : "header",
                                 .anchor_text = r.anchor_text});
        });
        return !progress_.stop;
    }

    /// A document (a Markdown or HTML file, an HTML record of a WARC file)
    /// through its format's reader: its declared links, with their anchor
    /// text, and what the scanner finds in its prose. A `<base href>` comes
    /// before the record's target URI or the file's base (Section 5.1.1).
    /// One its reader leaves unread is read as plain text.
    void add_document(std::string_view text, document_format fmt, std::string_view name = {}) {
        const document_layout layout = read_document(text, fmt, s_.memory.parse_memory, name);
        if (!layout.unread.empty()) {
            scanner& sc = fresh_scanner();
            sc.feed(text);
            sc.finish();
            return;
        }
        if (layout.base)
            if (auto b = document_base(layout, record_base_ ? &*record_base_ : file_base_, s_.resolve))
                record_base_ = std::move(*b);
        scan_document(text, layout, s_.scan, nullptr, [this](found_reference& r) {
            return add(r, {.part_kind = {}, .anchor_text = r.declared ? std::string_view(r.declared->text) : ""});
        });
    }

    /// The resolution stage, as extract has it, against the record's base
    /// when a WARC record gave one; then the reference is counted.
    bool add(found_reference& r, const reference_context& context = {}) {
        const resolver* base = record_base_ ? &*record_base_ : file_base_;
        if (base) {
            resolve_reference(r, *base);
        } else if (s_.canonicalize && r.form != reference_form::relative) {
            if (auto c = resolve_absolute(r.url, s_.resolve)) r.url = std::move(*c);
        }
        r.line += line_offset_;
        return count(r, context);
    }

    /// Counts a reference the resolution stage is done with.
    bool count(const found_reference& r, const reference_context& context = {}) {
        if (counter_ != nullptr) {
            counter_->add(input_, r, context);
        } else {
            held_.add(input_, r, context);
            if (held_.size() == held_size) flush();
        }
        return true;
    }

    /// A WARC record begins: whether to read its payload, and how. Its
    /// target URI is the payload's base, else --base is.
    bool start_record(const warc_record& r, std::string& html) {
        if (r.type != "response" && r.type != "resource" && r.type != "conversion") return false;
        if (!text_payload(r.content_type)) return false;
        record_base_.reset();
        if (!r.target_uri.empty())
            if (auto b = resolver::make(r.target_uri, s_.resolve)) record_base_ = std::move(*b);
        line_offset_ = r.line - 1;
        in_html_ = r.content_type == "text/html" || r.content_type == "application/xhtml+xml";
        html.clear();
        if (!in_html_) fresh_scanner();
        return true;
    }

    /// The scanner, as new, for the next input or WARC record: one is kept
    /// for them all, so that many small files do not each allocate its memory.
    scanner& fresh_scanner() {
        if (scanner_) scanner_->reset();
        else scanner_.emplace(s_.scan, [this](found_reference& r) { return add(r); });
        return *scanner_;
    }

    const read_settings& s_;
    run_progress& progress_;
    mail_scan_options mail_;
    std::optional<text_source> source_;
    std::optional<scanner> scanner_;
    report* into_ = nullptr;
    counting_thread* counter_ = nullptr;
    /// Without a counter: references not yet counted into `into_`.
    reference_batch held_;
    std::vector<report::pending> held_refs_; ///< held_'s, as report::add takes them
    std::uint64_t input_ = 0, bytes_ = 0, line_offset_ = 0;
    std::uint64_t unpublished_inputs_ = 0, unpublished_bytes_ = 0; ///< see progressed()
    std::optional<resolver> record_base_;
    input_bases bases_;                  ///< the base of each input
    const resolver* file_base_ = nullptr; ///< the input's, from bases_
    std::string document_;               ///< a Markdown or HTML document, read whole
    bool in_html_ = false;
};

/// The inputs of a run as they are listed, shared by the thread that
/// lists them and the workers that read them.
class input_list {
public:
    explicit input_list(run_progress& progress) : progress_(progress) {}

    void add(listed_file file) {
        {
            const std::lock_guard lock(m_);
            files_.push_back(std::move(file));
        }
        ++progress_.inputs_listed;
        grew_.notify_all();
    }
    /// The list is complete.
    void close() {
        {
            const std::lock_guard lock(m_);
            closed_ = true;
        }
        progress_.listed = true;
        grew_.notify_all();
    }
    /// Waits until the list holds more than `n` paths or is closed; whether
    /// it does.
    bool wait_beyond(std::size_t n) {
        std::unique_lock lock(m_);
        grew_.wait(lock, [&] { return files_.size() > n || closed_; });
        return files_.size() > n;
    }
    /// Takes the next run: up to 64 of the files listed and not taken,
    /// fewer as the end of a closed list nears, for balance; waiting for
    /// the listing when they are all taken. Gives the index of the first,
    /// and the files (which stay where they are, as at() says); none at the
    /// end of the list.
    std::size_t take(std::size_t jobs, std::vector<listed_file*>& run) {
        run.clear();
        std::unique_lock lock(m_);
        grew_.wait(lock, [&] { return files_.size() > taken_ || closed_; });
        // Runs short enough that the workers end together: a worker counts
        // all its runs into one report, so a run may be as short as one
        // input.
        const std::size_t most =
            closed_ ? std::clamp<std::size_t>((files_.size() - taken_) / (jobs * 4), 1, 64) : std::size_t{64};
        const std::size_t first = taken_;
        while (taken_ < files_.size() && run.size() < most) run.push_back(&files_[taken_++]);
        return first;
    }
    std::size_t size() {
        const std::lock_guard lock(m_);
        return files_.size();
    }
    /// File `i`: the reference stays valid as the list grows (a deque's
    /// elements stay where they are when more are added at its end).
    listed_file& at(std::size_t i) {
        const std::lock_guard lock(m_);
        return files_.at(i);
    }
    /// Frees the path of `file`, a file of the list this thread has read: a
    /// walk lists tens of thousands, which the list would otherwise free
    /// at the end of the run, on one thread, after the others are done.
    static void read_out(listed_file& file) noexcept { std::string().swap(file.path); }

private:
    run_progress& progress_;
    std::mutex m_;
    std::condition_variable grew_;
    std::deque<listed_file> files_;
    std::size_t taken_ = 0;
    bool closed_ = false;
};

/// Reads the inputs one after another on this thread, as `list` lists
/// them; with threads to spare and one input, another thread counts.
report read_in_turn(input_list& inputs, const read_settings& s, unsigned jobs, run_progress& progress) {
    input_reader reader(s, progress);
    report r(s.exact_url_limit);
    std::optional<counting_thread> counter;
    if (jobs > 1) reader.count_on(counter.emplace(r));
    for (std::size_t i = 0; !progress.stop && inputs.wait_beyond(i); ++i) {
        listed_file& file = inputs.at(i);
        reader.read(file, r);
        input_list::read_out(file);
    }
    reader.flush();
    return r;
}

/// The input ordinals of the parts' inputs: the list's indexes of the
/// inputs read, renumbered without gaps (an interrupted run leaves inputs
/// unread; the report covers those read, in input order).
std::vector<std::vector<std::uint64_t>> ordinals_of(std::vector<std::vector<std::uint64_t>> taken, std::size_t listed) {
    std::vector<std::uint64_t> rank(listed, 0);
    for (const auto& indexes : taken)
        for (const std::uint64_t i : indexes) rank[i] = 1;
    for (std::uint64_t i = 0, read = 0; i < rank.size(); ++i) rank[i] = rank[i] != 0 ? read++ : 0;
    for (auto& indexes : taken)
        for (std::uint64_t& i : indexes) i = rank[i];
    return taken;
}

/// Reads the inputs on `jobs` workers while `inputs` is being listed: the
/// threads it starts, and the calling thread once it calls `finish` (its
/// listing done). Each worker takes the next run of consecutive inputs and
/// counts it into a report of its own, which it keeps for all the runs it
/// takes. Once all are done reading, the workers put their reports
/// together, each taking the next step of it, each input at its place in
/// input order (`report::interleaving`).
class worker_team {
public:
    worker_team(input_list& inputs, const read_settings& s, unsigned jobs, run_progress& progress)
        : inputs_(inputs), s_(s), progress_(progress), taken_(jobs), reading_(jobs) {
        for (unsigned w = 0; w < jobs; ++w) parts_.emplace_back(s.exact_url_limit);
        try {
            for (unsigned w = 1; w < jobs; ++w) pool_.emplace_back([this, w] {
                block_interrupt();
                read_share(w);
                if (!end_reading(1)) planned_.wait(false, std::memory_order_acquire);
                take_steps();
                const std::lock_guard lock(m_);
                ++exited_;
                ended_.notify_all();
            });
        } catch (...) {
            stop_all();
            throw;
        }
    }
    worker_team(const worker_team&) = delete;
    worker_team& operator=(const worker_team&) = delete;
    /// Without a call to finish (the listing failed): the run stops.
    ~worker_team() {
        if (!pool_.empty()) stop_all();
    }

    /// Reads on this thread as worker 0 until the inputs are all taken,
    /// waits for the others, and gives the report of them all.
    report finish() {
        const wake_signal waking;
        read_share(0);
        // This thread waits for the others without sleeping for good: once
        // the run is stopped, a worker waiting in a read (a FIFO) is woken,
        // and again a little later in case the signal came just before the
        // read.
        const auto wait_for = [&](const auto& done) {
            std::unique_lock lock(m_);
            while (!done()) {
                ended_.wait_for(lock, std::chrono::milliseconds(50));
                if (progress_.stop)
                    for (auto& t : pool_) wake_signal::wake(t);
            }
        };
        if (!end_reading(1) && !planned_.load(std::memory_order_acquire))
            wait_for([&] { return planned_.load(std::memory_order_acquire); });
        take_steps();
        wait_for([&] { return exited_ == pool_.size(); });
        join();
        if (failure_) std::rethrow_exception(failure_);
        return std::move(*together_).result();
    }

private:
    /// Reads runs of inputs into part `w` until none is left.
    void read_share(std::size_t w) {
        // Filled here and handed over at the end: the workers' vectors side
        // by side in `taken_` share a cache line, which a push_back for
        // every input would make the cores trade back and forth.
        std::vector<std::uint64_t> mine;
        try {
            input_reader reader(s_, progress_);
            std::vector<listed_file*> run;
            while (!stop_ && !progress_.stop) {
                const std::size_t first = inputs_.take(parts_.size(), run);
                if (run.empty()) break;
                for (std::size_t i = 0; i < run.size() && !progress_.stop; ++i) {
                    mine.push_back(first + i);
                    reader.read(*run[i], parts_[w]);
                    input_list::read_out(*run[i]);
                }
            }
            reader.flush();
        } catch (...) {
            failed();
        }
        taken_[w] = std::move(mine);
    }

    /// Takes the steps of putting the parts together that are left.
    void take_steps() {
        if (!together_) return;
        try {
            for (std::size_t i = next_step_++; i < together_->steps(); i = next_step_++) together_->run(i);
        } catch (...) {
            failed();
        }
    }

    /// `workers` are done reading; the last of all plans how the parts are
    /// put together. Whether it was the last.
    bool end_reading(unsigned workers) {
        if (reading_.fetch_sub(workers, std::memory_order_acq_rel) != workers) return false;
        try {
            if (!stop_) together_.emplace(std::move(parts_), ordinals_of(std::move(taken_), inputs_.size()));
        } catch (...) {
            failed();
        }
        {
            // Under the lock, so that the calling thread, which waits on
            // `ended_`, sees it or is told.
            const std::lock_guard lock(m_);
            planned_.store(true, std::memory_order_release);
        }
        planned_.notify_all();
        ended_.notify_all();
        return true;
    }

    void failed() {
        const std::lock_guard lock(m_);
        if (!failure_) failure_ = std::current_exception();
        stop_ = true;
    }

    /// Stops the run where it is, without this thread's share, and waits
    /// for the workers started.
    void stop_all() noexcept {
        stop_ = true;
        inputs_.close();
        end_reading(static_cast<unsigned>(parts_.size() - pool_.size()));
        join();
    }

    void join() noexcept {
        for (auto& t : pool_) t.join();
        pool_.clear();
    }

    input_list& inputs_;
    const read_settings& s_;
    run_progress& progress_;
    std::vector<report> parts_;
    std::vector<std::vector<std::uint64_t>> taken_; ///< each part's inputs, by list index
    std::atomic<bool> stop_{false};                 ///< a worker failed: the others stop
    std::mutex m_;
    std::condition_variable ended_;
    std::size_t exited_ = 0; ///< workers on threads of their own that have ended, under `m_`
    std::exception_ptr failure_;
    std::atomic<unsigned> reading_; ///< workers not yet done reading
    std::optional<report::interleaving> together_; ///< made by the last to end its reading
    std::atomic<bool> planned_{false};              ///< `together_` is made, or will not be
    std::atomic<std::size_t> next_step_{0};
    std::vector<std::jthread> pool_;  ///< last: started once the rest is ready
};

/// Lists the inputs into `inputs` with `list`, closing the list whatever
/// happens; false (and the listing stops) once the run is stopped. `added`
/// is told the number of inputs listed after each.
void list_into(input_list& inputs, const input_lister& list, run_progress& progress,
               const std::function<void(std::size_t)>& added = {}) {
    try {
        std::size_t n = 0;
        list([&](listed_file file) {
            inputs.add(std::move(file));
            if (added) added(++n);
            return !progress.stop;
        });
    } catch (...) {
        inputs.close();
        throw;
    }
    inputs.close();
}

}  // namespace

/// Since counting is exact and a first location is a minimum, the result
/// is the report of one sequential run, whatever the thread count and the
/// timing. With threads to spare, the workers start with the second input
/// listed and read while this thread goes on listing (a walk), then reads
/// beside them: it is running already, where a thread started may wait
/// some milliseconds for a processor.
report aggregate(const input_lister& list, const read_settings& s, unsigned jobs, run_progress& progress) {
    input_list inputs(progress);
    if (jobs <= 1) {
        list_into(inputs, list, progress);
        return read_in_turn(inputs, s, jobs, progress);
    }
    std::optional<worker_team> team;
    list_into(inputs, list, progress, [&](std::size_t listed) {
        if (listed == 2) team.emplace(inputs, s, jobs, progress);
    });
    // One input (a file named, not a tree walked): one thread reads it
    // while another counts.
    if (!team) return read_in_turn(inputs, s, jobs, progress);
    return team->finish();
}

}  // namespace urlsift::cli
