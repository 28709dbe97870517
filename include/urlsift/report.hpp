#pragma once
// Batch reports: counts of the references found over many inputs, made so
// that reports over parts of a corpus merge into exactly the report over all
// of it.

#include <urlsift/export.hpp>
#include <urlsift/found_reference.hpp>

#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift {

/// What became of one input.
enum class input_status : unsigned char {
    read,   ///< read to its end and scanned
    binary, ///< binary (a NUL byte): skipped, as grep does
    failed, ///< could not be read; see `report_input::error`
};

/// "read", "binary", "failed".
URLSIFT_EXPORT std::string_view to_string(input_status s) noexcept;

/// The facts about one input. Its ordinal is its index in `report::inputs()`.
struct report_input {
    std::string name;             ///< as given (`-` for standard input)
    std::uint64_t bytes = 0;      ///< bytes of UTF-8 text scanned (0 for a skipped input)
    std::uint64_t references = 0; ///< references found in it
    input_status status = input_status::read;
    std::string error;            ///< for `failed`: why, ready for a message
};

/// Where something was seen first. "First" is input order: the lower input
/// ordinal, then the lower line. Locations compare in that order.
struct report_location {
    std::uint64_t input = 0; ///< ordinal of the input in the report
    std::uint64_t line = 0;  ///< 1-based line of the reference in that input
    friend auto operator<=>(const report_location&, const report_location&) = default;
};

/// The tables a report counts in. Each maps a key to how many references
/// had it and where the first of them was.
enum class report_table : unsigned char {
    scheme,        ///< scheme of an absolute URL, lower case
    host,          ///< host of a URL with a site component, ASCII lower case
    domain,        ///< registrable domain of the host (see `registrable_domain`)
    wrapper,       ///< `to_string(wrapper_kind)`: none, angle, quote, url-prefix
    form,          ///< `to_string(reference_form)`: absolute, relative, abbreviated
    warning,       ///< Section 7 warning names (`to_string(url_warning)`)
    ip_host,       ///< hosts that are IP addresses, not names (a security signal)
    punycode_host, ///< hosts with an `xn--` (IDNA A-label) label (a spoofing signal)
    lookalike_host, ///< hosts with a label that deceives by UTS 39 (see `is_lookalike_host`)
    gateway,       ///< links a mail security gateway wrapped, by gateway (`to_string(gateway_kind)`)
    /// HTML links whose anchor text names a site in another registrable
    /// domain than the link's: "shown -> actual" (`paypal.com -> evil.example`)
    anchor_mismatch,
    part_kind,     ///< references by the MIME content type of their part; "header" for a header's URL
    relative,      ///< relative references left unresolved (no base), as written
    url,           ///< absolute URLs: the distinct-URL set, exact up to the report's limit
};
inline constexpr std::size_t report_table_count = 14;

/// "scheme", "host", "domain", "wrapper", "form", "warning", "ip_host",
/// "punycode_host", "lookalike_host", "gateway", "anchor_mismatch",
/// "part_kind", "relative", "url": the stable names of the json format.
URLSIFT_EXPORT std::string_view to_string(report_table t) noexcept;

/// Distinct absolute URLs are counted exactly up to this many by default.
inline constexpr std::uint64_t default_exact_url_limit = 1'000'000;

/// How many distinct absolute URLs a report has seen.
struct distinct_url_count {
    std::uint64_t count = 0;
    /// True while the `url` table holds them all; false once there were
    /// more than the report's limit and `count` is a HyperLogLog estimate.
    bool exact = true;
    /// For an estimate, its relative standard error (0.0081: 0.81 %); else 0.
    double relative_error = 0;
};

/// What a report counts of a found reference: its URL as reported and
/// where and how it was written.
struct counted_reference {
    std::string_view url;
    std::uint64_t line = 0;
    wrapper_kind wrapper = wrapper_kind::none;
    reference_form form = reference_form::absolute;
};

/// What the input stage knows of a reference beyond the reference itself.
struct reference_context {
    /// The lower-case content type of the MIME part it came from
    /// ("text/plain"), "header" for a URL a header holds; empty for an input
    /// that is not mail.
    std::string_view part_kind;
    /// For a link of an HTML `<a>` element: the text it shows.
    std::string_view anchor_text;
};

/// One row of a table.
struct report_row {
    std::string_view key; ///< valid until the report is next changed
    std::uint64_t count = 0;
    report_location first;
};

/// The aggregate of a batch report.
///
/// Contract:
/// - Inputs are added in input order (`add_input`), each reference with the
///   ordinal of its input (`add`), after the resolution stage.
/// - Counts are exact: no sampling. Keys are stored as valid UTF-8 (an
///   invalid byte counts as U+FFFD), so a report written as JSON and read
///   back is the same report.
/// - The one exception is the set of distinct absolute URLs, whose memory
///   would grow with the corpus: once it holds more than the report's
///   exact-URL limit, the `url` table is emptied into a HyperLogLog sketch
///   (2^14 registers, 0.81 % standard error) that counts from then on; the
///   other tables stay exact. The switch depends on the set alone, and so
///   do the registers, so merging keeps the property below.
/// - `merge(later)` appends the inputs of `later` after this report's and
///   adds its counts. Splitting the inputs anywhere, aggregating the parts
///   and merging them in order gives exactly the report of one run over
///   all: same counts, same first locations, same input ordinals.
/// - Every listing is deterministic: rows by count, descending, then key
///   by bytes, ascending; inputs by ordinal.
///
///     urlsift::report r;
///     const auto in = r.add_input("notes.txt");
///     for (auto& ref : urlsift::scan(text)) r.add(in, ref);
///     r.finish_input(in, text.size(), urlsift::input_status::read);
///     r.rows(urlsift::report_table::host, 10);   // the ten most linked hosts
class URLSIFT_EXPORT report {
public:
    report();
    /// A report that counts distinct URLs exactly up to `exact_url_limit`.
    explicit report(std::uint64_t exact_url_limit);
    report(const report&);
    report& operator=(const report&);
    report(report&&) noexcept;
    report& operator=(report&&) noexcept;
    ~report();

    /// Starts the next input; returns its ordinal.
    std::uint64_t add_input(std::string name);
    /// Appends an input with its facts as they are (a report read back from
    /// its serialized form); its `references` add to `references()`.
    /// Throws std::overflow_error, changing nothing, when the references or
    /// the bytes would pass 2^64 - 1.
    std::uint64_t add_input(report_input facts);
    /// Counts `ref`, found in input `input` (an ordinal `add_input` gave),
    /// with what the input stage knows of where it was.
    void add(std::uint64_t input, const found_reference& ref, const reference_context& context = {}) {
        add(input, counted_reference{ref.url, ref.line, ref.wrapper, ref.form}, context);
    }
    /// The same, with only what is counted of the reference.
    void add(std::uint64_t input, const counted_reference& ref, const reference_context& context = {});
    /// A reference for the batch form of add.
    struct pending {
        std::uint64_t input = 0;
        counted_reference ref;
        reference_context context;
    };
    /// Counts each of `refs` in turn, as add does; faster for a long batch,
    /// whose lookups are started ahead of their turn.
    void add(std::span<const pending> refs);
    /// Records how reading input `input` ended.
    void finish_input(std::uint64_t input, std::uint64_t bytes, input_status status, std::string error = {});
    /// Adds `count` to `key` in table `t`, first seen at `first` (a report
    /// read back from its serialized form). `first.input` must be an
    /// ordinal of this report by the time the report is read. Throws
    /// std::overflow_error, changing nothing, when the key's count would
    /// pass 2^64 - 1.
    void add_count(report_table t, std::string_view key, std::uint64_t count, report_location first);

    /// Adds the registers of a distinct-URL sketch (a report read back from
    /// its serialized form; `url_sketch()` gave them) and switches to
    /// counting by sketch. False when they are not a sketch's registers.
    bool add_url_sketch(std::span<const std::uint8_t> registers);
    /// Changes the exact-URL limit; past it the `url` table becomes a sketch.
    void set_exact_url_limit(std::uint64_t limit);

    /// Appends `later`'s inputs after this report's and adds its counts.
    /// Both should have the same exact-URL limit; this report's applies.
    /// Counts never wrap: when the references, the bytes or a table's total
    /// (and so perhaps a count) would pass 2^64 - 1, it throws
    /// std::overflow_error, saying which, and changes nothing.
    void merge(const report& later);
    void merge(report&& later);
    /// Puts together reports made over inputs taken in turns (by threads):
    /// input i of `parts[p]` is input `ordinals[p][i]` of the result. The
    /// ordinals of all parts together are 0 to n-1, each once, and increase
    /// within each part. The result is the report one run over the inputs
    /// in that order gives. Throws std::invalid_argument otherwise.
    static report interleave(std::vector<report> parts, const std::vector<std::vector<std::uint64_t>>& ordinals);
    class interleaving;

    /// The inputs in input order, valid until the report next changes.
    std::span<const report_input> inputs() const noexcept;
    std::uint64_t references() const noexcept; ///< every reference found, all forms
    std::uint64_t bytes() const noexcept;      ///< bytes scanned, over all inputs
    /// Inputs with status `s`.
    std::uint64_t inputs_with(input_status s) const noexcept;
    /// Inputs with at least one reference.
    std::uint64_t inputs_with_references() const noexcept;

    /// Distinct keys in `t` seen at least `min_count` times
    /// (`distinct(report_table::url, 2)`: URLs seen more than once).
    std::uint64_t distinct(report_table t, std::uint64_t min_count = 1) const noexcept;
    /// Sum of the counts in `t` of the keys seen at least `min_count` times.
    std::uint64_t total(report_table t, std::uint64_t min_count = 1) const noexcept;
    /// The rows of `t` seen at least `min_count` times, by count descending
    /// then key ascending; the first `limit` of them (0: all).
    std::vector<report_row> rows(report_table t, std::size_t limit = 0, std::uint64_t min_count = 1) const;
    /// Distinct absolute URLs: exact, or estimated past the limit.
    distinct_url_count distinct_urls() const noexcept;
    std::uint64_t exact_url_limit() const noexcept;
    /// The sketch's registers once URLs are counted by sketch; else empty.
    std::span<const std::uint8_t> url_sketch() const noexcept;

    /// Ordinals of the inputs with at least one reference, by references
    /// descending then ordinal ascending; the first `limit` (0: all).
    std::vector<std::uint64_t> top_inputs(std::size_t limit = 0) const;

    friend URLSIFT_EXPORT bool operator==(const report& a, const report& b);

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

/// report::interleave in steps that threads may share: the threads that
/// counted the parts put them together, each taking the next step.
///
///     report::interleaving together(std::move(parts), std::move(ordinals));
///     for (std::size_t i; (i = next++) < together.steps();) together.run(i);  // on each thread
///     report r = std::move(together).result();
class URLSIFT_EXPORT report::interleaving {
public:
    /// Checks the ordinals as interleave does (std::invalid_argument).
    interleaving(std::vector<report> parts, std::vector<std::vector<std::uint64_t>> ordinals);
    interleaving(interleaving&&) noexcept;
    interleaving& operator=(interleaving&&) noexcept;
    ~interleaving();

    /// How many steps there are, the longest first.
    std::size_t steps() const noexcept;
    /// Takes step `i`; different steps may be taken at once on different
    /// threads, each once.
    void run(std::size_t i);
    /// The report, once every step has been taken.
    report result() &&;

private:
    struct state;
    std::unique_ptr<state> state_;
};

/// `a` followed by `b`: the report of a's inputs and then b's.
URLSIFT_EXPORT report merge(report a, const report& b);

/// The registrable domain of `host` (ASCII lower case, no brackets), or
/// empty when it has none: an IP address, a single label, or a top-level
/// label that is no public suffix. The top-level suffixes are known, and
/// under a country code the common second levels (`www.bbc.co.uk` gives
/// `bbc.co.uk`); private suffixes such as `github.io` are not.
///
///     registrable_domain("www.w3.org") == "w3.org"
URLSIFT_EXPORT std::string_view registrable_domain(std::string_view host) noexcept;

/// Whether `host` is an IP address rather than a name: an IP literal in
/// brackets (RFC 3986 section 3.2.2), or a name whose last label is a
/// number, which the URL Standard's host parser reads as IPv4
/// (`192.168.0.1`, `0x7f.1`, `3232235521`).
URLSIFT_EXPORT bool is_ip_host(std::string_view host) noexcept;

/// Whether a label of `host` starts with the IDNA ACE prefix `xn--`
/// (RFC 5890 section 2.3.2.1), in any case.
URLSIFT_EXPORT bool is_punycode_host(std::string_view host) noexcept;

/// Whether a label of `host` (an A-label decoded, or a label written in
/// Unicode) deceives by UTS 39 as ICU's spoof checker applies it: scripts
/// mixed beyond a moderately restrictive profile (`pаypal` with a Cyrillic
/// `а`), invisible characters, digits of several systems, or a skeleton
/// that is plain ASCII, so that the label reads as an ASCII word it is not
/// (`xn--80ak6aa92e`, Cyrillic "аррӏе"). ASCII labels never do.
URLSIFT_EXPORT bool is_lookalike_host(std::string_view host);

}  // namespace urlsift
