// The batch report's aggregate: exact counts per table, first locations in
// input order, and the merge that makes sharded runs add up to one run.

#include <urlsift/report.hpp>

#include <urlsift/reference.hpp>
#include <urlsift/scanner.hpp>
#include <urlsift/unwrap.hpp>
#include <urlsift/warnings.hpp>

#include "report/key_table.hpp"
#include "report/url_sketch.hpp"
#include "text/icu_text.hpp"
#include "uri/site.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

namespace urlsift {

namespace {

/// Sorts `v` by `before` and keeps its first `limit` elements (all when
/// `limit` is 0), sorting no more than it keeps.
template <class T, class Before>
void keep_first(std::vector<T>& v, std::size_t limit, Before before) {
    if (limit != 0 && limit < v.size()) {
        std::partial_sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(limit), v.end(), before);
        v.resize(limit);
    } else {
        std::sort(v.begin(), v.end(), before);
    }
}

using detail::key_table;
using detail::valid_utf8;


void ascii_lower(std::string& s) noexcept {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + ('a' - 'A'));
}

/// The registrable domain of `host`, or the host itself when it has none
/// (an IP address, a single label): what a reader takes for the site.
std::string_view site_of(std::string_view host) noexcept {
    const std::string_view domain = registrable_domain(host);
    return domain.empty() ? host : domain;
}

/// When the text of a link (`anchor`) shows a URL or host name whose site
/// differs from that of `host`, where the link leads: "shown -> actual".
/// Empty when the text names no site, or the link's own.
std::string shown_elsewhere(std::string_view anchor, std::string_view host) {
    // The text read as prose is read: by the scanner, abbreviations too
    // (`www.paypal.com`, `paypal.com`).
    for (const found_reference& shown : scan(anchor)) {
        const reference_parts parts = parse_reference(shown.url);
        if (!parts.site) continue;
        std::string shown_host(detail::split_site(*parts.site).host);
        if (shown_host.empty()) continue;
        ascii_lower(shown_host);
        const std::string_view a = site_of(shown_host), b = site_of(host);
        if (a == b) return {};
        return std::string(a) + " -> " + std::string(b);
    }
    return {};
}

// A host's facts, kept in its entry of the host table: flags, and where in
// the host its registrable domain starts, above them.
constexpr std::uint32_t fact_known = 1u << 0;
constexpr std::uint32_t fact_ip = 1u << 1;
constexpr std::uint32_t fact_punycode = 1u << 2;
constexpr std::uint32_t fact_lookalike = 1u << 3;
constexpr std::uint32_t fact_domain = 1u << 4;
constexpr unsigned fact_domain_shift = 5;

std::uint32_t host_facts(std::string_view host) {
    std::uint32_t facts = fact_known;
    if (is_ip_host(host)) return facts | fact_ip;
    if (is_punycode_host(host)) facts |= fact_punycode;
    if (is_lookalike_host(host)) facts |= fact_lookalike;
    const std::string_view domain = registrable_domain(host);
    const auto at = static_cast<std::size_t>(domain.data() - host.data());
    // No real host name comes near 2^27 bytes; one that did counts as
    // having no domain.
    if (!domain.empty() && at < (std::size_t{1} << (32 - fact_domain_shift)))
        facts |= fact_domain | static_cast<std::uint32_t>(at) << fact_domain_shift;
    return facts;
}

/// The registrable domain `facts` locate in `host`: from where it starts,
/// without the root's `.` (`registrable_domain` gives the same view).
std::string_view domain_in(std::string_view host, std::uint32_t facts) noexcept {
    if ((facts & fact_domain) == 0) return {};
    std::string_view domain = host.substr(facts >> fact_domain_shift);
    if (domain.ends_with('.')) domain.remove_suffix(1);
    return domain;
}

// A URL's facts, kept in its entry of the url table once it was counted in
// full (the same URL has the same warnings, scheme and host every time): its
// warnings, one bit each, and its scheme's entry above them; the entry's
// link is its host's.
constexpr std::uint32_t url_known = 1u << 0;
constexpr std::uint32_t url_has_host = 1u << 1;
constexpr unsigned url_warning_shift = 2;
constexpr unsigned url_scheme_shift = 8;
constexpr std::size_t url_warning_kinds = static_cast<std::size_t>(url_warning::script_scheme) + 1;
static_assert(url_warning_shift + url_warning_kinds <= url_scheme_shift);
constexpr std::size_t url_scheme_limit = std::size_t{1} << (32 - url_scheme_shift);

/// A report's inputs, which a large run has tens of thousands of.
using input_array = std::vector<report_input>;

/// Totals over a report's inputs, kept as inputs come and change: every
/// format asks for them, and reading tens of thousands of inputs for each
/// total took longer than the rest of the text format.
struct input_totals {
    std::array<std::uint64_t, 3> by_status{}; ///< by input_status
    std::uint64_t bytes = 0;
    std::uint64_t with_references = 0;

    void add(const report_input& in) noexcept {
        ++by_status.at(static_cast<std::size_t>(in.status));
        bytes += in.bytes;
        with_references += in.references > 0 ? 1 : 0;
    }
    void remove(const report_input& in) noexcept {
        --by_status.at(static_cast<std::size_t>(in.status));
        bytes -= in.bytes;
        with_references -= in.references > 0 ? 1 : 0;
    }
    input_totals& operator+=(const input_totals& o) noexcept {
        for (std::size_t i = 0; i < by_status.size(); ++i) by_status[i] += o.by_status[i];
        bytes += o.bytes;
        with_references += o.with_references;
        return *this;
    }
};

/// Adds `n` keys in turn to `table`, which may hold millions, without
/// waiting on memory for each key's slot, then its entry, then its bytes:
/// each is started some keys ahead of its turn, once the one before has
/// come. `hash_at(i)` gives key i's hash, once, in order; `add(i, hash)`
/// adds it.
template <class HashAt, class Add>
void add_ahead(const key_table& table, std::size_t n, HashAt hash_at, Add add) {
    constexpr std::size_t ahead = 12;
    std::array<std::uint64_t, 2 * ahead> hashes{};  // a ring, by key index
    const auto start = [&](std::size_t i) {
        const std::uint64_t h = hash_at(i);
        hashes[i % hashes.size()] = h;
        table.prefetch_slot(h);
    };
    for (std::size_t i = 0; i < std::min(ahead, n); ++i) start(i);
    for (std::size_t i = 0; i < n; ++i) {
        if (i + ahead < n) start(i + ahead);
        if (i + ahead * 2 / 3 < n) table.prefetch_entry(hashes[(i + ahead * 2 / 3) % hashes.size()]);
        if (i + ahead / 3 < n) table.prefetch_key(hashes[(i + ahead / 3) % hashes.size()]);
        add(i, hashes[i % hashes.size()]);
    }
}

/// a + b, or std::overflow_error saying that `what` would pass 2^64 - 1.
std::uint64_t sum_or_throw(std::uint64_t a, std::uint64_t b, const std::string& what) {
    std::uint64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        throw std::overflow_error(what + " would pass " + std::to_string(std::numeric_limits<std::uint64_t>::max()));
    return sum;
}

/// "the counts of table \"host\"", for sum_or_throw.
std::string table_counts(report_table t) { return "the counts of table \"" + std::string(to_string(t)) + '"'; }

}  // namespace

struct report::impl {
    input_array inputs;
    input_totals totals; ///< over `inputs`
    std::uint64_t references = 0;
    std::array<key_table, report_table_count> tables;
    std::uint64_t exact_url_limit = default_exact_url_limit;
    /// Set once the distinct URLs passed the limit; the `url` table is
    /// empty from then on.
    std::optional<detail::url_sketch> sketch;
    std::string scratch, lowered;  ///< reused buffers, never state
    /// The entries of the wrapper and form tables by enumerator, as index
    /// + 1 (0: none yet). Every reference counts one of each; by name that
    /// is a hash and a probe whenever the last reference had another. An
    /// entry keeps its index (tables only grow), and a copy of the tables
    /// keeps their order.
    std::array<std::uint32_t, 4> wrapper_entries{};
    std::array<std::uint32_t, 3> form_entries{};
    /// The total of each table's counts as the last merge left them, so that
    /// merging many reports into one checks each once; anything else that
    /// changes a count forgets them.
    std::optional<std::array<std::uint64_t, report_table_count>> known_totals;

    /// The total of each table's counts; std::overflow_error when one
    /// passes 2^64 - 1 (counts added back from a serialized report).
    std::array<std::uint64_t, report_table_count> table_totals() const {
        if (known_totals) return *known_totals;
        std::array<std::uint64_t, report_table_count> sums{};
        for (std::size_t t = 0; t < report_table_count; ++t)
            for (const auto& e : tables[t].entries())
                if (__builtin_add_overflow(sums[t], e.tally.count, &sums[t]))
                    sum_or_throw(std::numeric_limits<std::uint64_t>::max(), 1, table_counts(static_cast<report_table>(t)));
        return sums;
    }

    /// Counts `url` (hash `h`) in the distinct-URL set: the table, where
    /// its entry is returned, or the sketch.
    key_table::entry* add_url(std::string_view url, std::uint64_t h, std::uint64_t count, report_location where) {
        if (sketch) {
            sketch->add(url);
            return nullptr;
        }
        key_table& urls = at(report_table::url);
        key_table::entry& e = urls.add(url, h, count, where);
        if (urls.size() <= exact_url_limit) return &e;
        to_sketch();
        return nullptr;
    }
    /// Counts once more, at `where`, a URL counted in full before: the
    /// entry's facts say what to count beside it.
    void add_known_url(std::size_t index, report_location where) {
        const key_table::entry& u = at(report_table::url).add_at(index, 1, where);
        for (std::size_t w = 0; w < url_warning_kinds; ++w)
            if ((u.facts & (1u << (url_warning_shift + w))) != 0)
                bump(report_table::warning, to_string(static_cast<url_warning>(w)), where);
        at(report_table::scheme).add_at((u.facts >> url_scheme_shift) - 1, 1, where);
        if ((u.facts & url_has_host) != 0) add_host_facts(at(report_table::host).add_at(u.link - 1, 1, where), where);
    }
    /// Counts what the host of entry `h` says of itself: an IP address, a
    /// punycode or look-alike name, a registrable domain (whose entry it
    /// links to once it is known).
    void add_host_facts(key_table::entry& h, report_location where) {
        const std::string_view host = h.key();
        if (h.facts == 0) h.facts = host_facts(host);
        if ((h.facts & fact_ip) != 0) {
            bump(report_table::ip_host, host, where);
            return;
        }
        if ((h.facts & fact_punycode) != 0) bump(report_table::punycode_host, host, where);
        if ((h.facts & fact_lookalike) != 0) bump(report_table::lookalike_host, host, where);
        key_table& domains = at(report_table::domain);
        if (h.link != 0) {
            domains.add_at(h.link - 1, 1, where);
        } else if (const std::string_view domain = domain_in(host, h.facts); !domain.empty()) {
            h.link = static_cast<std::uint32_t>(domains.index_of(domains.add(domain, 1, where)) + 1);
        }
    }
    /// Empties the `url` table into the sketch.
    void to_sketch() {
        if (!sketch) sketch.emplace();
        key_table& urls = at(report_table::url);
        for (const auto& e : urls.entries()) sketch->add(e.key());
        urls.clear();
    }
    /// Adds the registers of another sketch: URLs are counted by sketch
    /// from then on.
    void merge_sketch(const detail::url_sketch& other) {
        to_sketch();
        sketch->merge(other.registers());
    }
    /// Adds the counts of `other`'s tables and URL set, its input i being
    /// input `ordinal(i)` here (first locations follow). Inputs themselves
    /// are the caller's.
    template <class Ordinal>
    void add_counts(const impl& other, const Ordinal& ordinal) {
        references += other.references;
        for (std::size_t t = 0; t < report_table_count; ++t) add_table(static_cast<report_table>(t), other, ordinal);
    }
    /// add_counts for table `t` alone (with the URL table, the sketch): it
    /// changes nothing else, so that tables may be added on threads at once.
    template <class Ordinal>
    void add_table(report_table t, const impl& other, const Ordinal& ordinal) {
        // Each entry of `other`'s table, its first location renumbered,
        // given to `add` with its hash.
        const auto from = other.at(t).entries();
        const auto add_entries = [&](const auto& add) {
            add_ahead(
                at(t), from.size(), [from](std::size_t i) { return from[i].hash; },
                [&](std::size_t i, std::uint64_t h) {
                    const key_table::entry& e = from[i];
                    add(e.key(), h, e.tally.count, report_location{ordinal(e.tally.first.input), e.tally.first.line});
                });
        };
        if (t != report_table::url) {
            add_entries([this, t](auto&&... entry) { at(t).add(entry...); });
            return;
        }
        // The distinct-URL set: a sketch on either side makes the result one.
        if (other.sketch) merge_sketch(*other.sketch);
        add_entries([this](auto&&... entry) { add_url(entry...); });
    }

    /// Counts `ref`; `ref_hash` is key_table::hash of its URL as given.
    void count(std::uint64_t input, const counted_reference& ref, const reference_context& context,
               std::uint64_t ref_hash);

    key_table& at(report_table t) noexcept { return tables[static_cast<std::size_t>(t)]; }
    const key_table& at(report_table t) const noexcept { return tables[static_cast<std::size_t>(t)]; }
    void bump(report_table t, std::string_view key, report_location where) { at(t).add(key, 1, where); }
    /// bump(t, to_string(kind), where), with the entry kept in `entries`.
    template <class Kind, std::size_t N>
    void bump_kind(report_table t, std::array<std::uint32_t, N>& entries, Kind kind, report_location where) {
        const auto k = static_cast<std::size_t>(kind);
        key_table& table = at(t);
        if (k < N && entries[k] != 0) {
            table.add_at(entries[k] - 1, 1, where);
            return;
        }
        const std::size_t index = table.index_of(table.add(to_string(kind), 1, where));
        if (k < N) entries[k] = static_cast<std::uint32_t>(index + 1);
    }
};

std::string_view to_string(input_status s) noexcept {
    switch (s) {
    case input_status::read: return "read";
    case input_status::binary: return "binary";
    case input_status::failed: return "failed";
    }
    return "read";
}

std::string_view to_string(report_table t) noexcept {
    static constexpr std::string_view names[report_table_count] = {
        "scheme", "host", "domain", "wrapper", "form", "warning", "ip_host", "punycode_host", "lookalike_host",
        "gateway", "anchor_mismatch", "part_kind", "relative", "url"};
    const auto i = static_cast<std::size_t>(t);
    return i < report_table_count ? names[i] : std::string_view("url");
}

report::report() : impl_(std::make_unique<impl>()) {}
report::report(std::uint64_t exact_url_limit) : impl_(std::make_unique<impl>()) {
    impl_->exact_url_limit = exact_url_limit;
}
report::report(const report& o) : impl_(std::make_unique<impl>(*o.impl_)) {}
report& report::operator=(const report& o) {
    if (this != &o) impl_ = std::make_unique<impl>(*o.impl_);
    return *this;
}
report::report(report&&) noexcept = default;
report& report::operator=(report&&) noexcept = default;
report::~report() = default;

std::uint64_t report::add_input(std::string name) {
    report_input in;
    std::string scratch;
    const std::string_view valid = valid_utf8(name, scratch);
    in.name = valid.data() == name.data() ? std::move(name) : std::string(valid);
    impl_->totals.add(in);
    impl_->inputs.push_back(std::move(in));
    return impl_->inputs.size() - 1;
}

std::uint64_t report::add_input(report_input facts) {
    const std::uint64_t references = sum_or_throw(impl_->references, facts.references, "the number of references");
    sum_or_throw(impl_->totals.bytes, facts.bytes, "the number of bytes");
    impl_->references = references;
    std::string scratch;
    if (const auto valid = valid_utf8(facts.name, scratch); valid.data() != facts.name.data()) facts.name = valid;
    impl_->totals.add(facts);
    impl_->inputs.push_back(std::move(facts));
    return impl_->inputs.size() - 1;
}

void report::finish_input(std::uint64_t input, std::uint64_t bytes, input_status status, std::string error) {
    report_input& in = impl_->inputs.at(input);
    impl_->totals.remove(in);
    in.bytes = bytes;
    in.status = status;
    std::string scratch;
    in.error = valid_utf8(error, scratch).data() == error.data() ? std::move(error) : std::move(scratch);
    impl_->totals.add(in);
}

void report::impl::count(std::uint64_t input, const counted_reference& ref, const reference_context& context,
                         std::uint64_t ref_hash) {
    if (inputs.at(input).references++ == 0) ++totals.with_references;
    ++references;
    const report_location where{input, ref.line};
    bump_kind(report_table::wrapper, wrapper_entries, ref.wrapper, where);
    bump_kind(report_table::form, form_entries, ref.form, where);
    if (!context.part_kind.empty()) bump(report_table::part_kind, valid_utf8(context.part_kind, scratch), where);
    const std::string_view url = valid_utf8(ref.url, scratch);
    const std::uint64_t url_hash = url.data() == ref.url.data() ? ref_hash : key_table::hash(url);
    // A URL counted before (nearly half of them in link-dense text) is not
    // read again. Anchor text is the reference's own, so such a reference is.
    if (!sketch && context.anchor_text.empty()) {
        const key_table& urls = at(report_table::url);
        if (const key_table::entry* known = urls.find(url, url_hash); known && (known->facts & url_known) != 0) {
            add_known_url(urls.index_of(*known), where);
            return;
        }
    }
    const reference_parts parts = parse_reference(url);
    // Section 7, judged as extract's --warnings does: on the URL as reported.
    std::uint32_t url_facts = url_known;
    for (const url_warning w : security_warnings(url, parts)) {
        bump(report_table::warning, to_string(w), where);
        url_facts |= 1u << (url_warning_shift + static_cast<unsigned>(w));
    }
    if (!parts.scheme) {
        // Section 5: without a base (or one the resolver rejected) a relative
        // reference stays as written; it is no URL of the distinct set.
        bump(report_table::relative, url, where);
        return;
    }
    key_table::entry* const counted = add_url(url, url_hash, 1, where);
    // Section 3.1: scheme names are case-insensitive; lower case is canonical.
    lowered.assign(*parts.scheme);
    ascii_lower(lowered);
    key_table& schemes = at(report_table::scheme);
    const std::size_t scheme = schemes.index_of(schemes.add(lowered, 1, where));
    // The facts are kept for the next time unless the URL went to the
    // sketch, the scheme's index does not fit, or a gateway's target is to
    // be read from the URL each time.
    bool keep = counted != nullptr && scheme + 1 < url_scheme_limit;
    url_facts |= static_cast<std::uint32_t>(scheme + 1) << url_scheme_shift;
    std::uint32_t host_link = 0;
    // mailto:, news:, urn: ... name no host, and file:///x an empty one.
    if (const auto site = parts.site ? detail::split_site(*parts.site) : detail::site_parts{}; !site.host.empty()) {
        // Section 6: host names are case-insensitive.
        lowered.assign(site.host);
        ascii_lower(lowered);
        const std::string_view host = lowered;
        key_table& hosts = at(report_table::host);
        key_table::entry& counted_host = hosts.add(host, 1, where);
        if (is_gateway_host(host)) {
            keep = false;
            if (const auto target = unwrap_gateways(url))
                bump(report_table::gateway, to_string(target->gateway), where);
        }
        if (!context.anchor_text.empty())
            if (const std::string shown = shown_elsewhere(context.anchor_text, host); !shown.empty()) {
                std::string shown_valid;  // `url` may be a view of `scratch`
                bump(report_table::anchor_mismatch, valid_utf8(shown, shown_valid), where);
            }
        add_host_facts(counted_host, where);
        url_facts |= url_has_host;
        host_link = static_cast<std::uint32_t>(hosts.index_of(counted_host) + 1);
    }
    if (keep) {
        counted->facts = url_facts;
        counted->link = host_link;
    }
}

void report::add(std::uint64_t input, const counted_reference& ref, const reference_context& context) {
    impl_->known_totals.reset();
    impl_->count(input, ref, context, key_table::hash(ref.url));
}

void report::add(std::span<const pending> refs) {
    impl& m = *impl_;
    m.known_totals.reset();
    add_ahead(
        m.at(report_table::url), refs.size(), [refs](std::size_t i) { return key_table::hash(refs[i].ref.url); },
        [&m, refs](std::size_t i, std::uint64_t h) { m.count(refs[i].input, refs[i].ref, refs[i].context, h); });
}

void report::add_count(report_table t, std::string_view key, std::uint64_t count, report_location first) {
    impl_->known_totals.reset();
    std::string scratch;
    const std::string_view valid = valid_utf8(key, scratch);
    if (const key_table::entry* e = impl_->at(t).find(valid))
        sum_or_throw(e->tally.count, count, "the count of \"" + std::string(valid) + "\" in table \"" +
                                                std::string(to_string(t)) + '"');
    if (t == report_table::url)
        impl_->add_url(valid, key_table::hash(valid), count, first);
    else
        impl_->at(t).add(valid, count, first);
}

bool report::add_url_sketch(std::span<const std::uint8_t> registers) {
    impl& m = *impl_;
    detail::url_sketch read;
    if (!read.merge(registers)) return false;
    m.known_totals.reset();
    m.merge_sketch(read);
    return true;
}

void report::set_exact_url_limit(std::uint64_t limit) {
    impl& m = *impl_;
    m.exact_url_limit = limit;
    m.known_totals.reset();
    if (!m.sketch && m.at(report_table::url).size() > limit) m.to_sketch();
}

void report::merge(const report& later) {
    impl& m = *impl_;
    const impl& o = *later.impl_;
    // Checked before anything changes, since a count that passed 2^64 - 1
    // would wrap to a small one, and a row could vanish. A count is at most
    // its table's total, so totals that add up keep every count in range.
    sum_or_throw(m.references, o.references, "the number of references");
    sum_or_throw(m.totals.bytes, o.totals.bytes, "the number of bytes");
    const auto mine = m.table_totals(), theirs = o.table_totals();
    std::array<std::uint64_t, report_table_count> sums{};
    for (std::size_t t = 0; t < report_table_count; ++t)
        sums[t] = sum_or_throw(mine[t], theirs[t], table_counts(static_cast<report_table>(t)));
    const std::uint64_t shift = m.inputs.size();
    m.inputs.insert(m.inputs.end(), later.impl_->inputs.begin(), later.impl_->inputs.end());
    m.totals += later.impl_->totals;
    m.add_counts(*later.impl_, [shift](std::uint64_t i) { return i + shift; });
    // Past the exact-URL limit the URL table was emptied into the sketch.
    if (m.sketch) sums[static_cast<std::size_t>(report_table::url)] = 0;
    m.known_totals = sums;
}

report report::interleave(std::vector<report> parts, const std::vector<std::vector<std::uint64_t>>& ordinals) {
    interleaving together(std::move(parts), ordinals);
    for (std::size_t i = 0; i < together.steps(); ++i) together.run(i);
    return std::move(together).result();
}

/// The parts, and the steps that put them together: one a table, one for
/// the inputs. The part with the most distinct keys is the base, renumbered
/// where it is; the others' keys are added to it, and their inputs moved
/// in order into a new array.
struct report::interleaving::state {
    std::vector<report> parts;
    std::vector<std::vector<std::uint64_t>> ordinals;
    std::size_t base = 0;
    /// The steps, longest first: a table's index, or `inputs_step`.
    std::vector<std::size_t> order;
    static constexpr std::size_t inputs_step = report_table_count;
    input_array inputs;  ///< the result's, once the inputs step is taken

    void add_table(report_table t) {
        impl& m = *parts[base].impl_;
        m.at(t).renumber_inputs(ordinals[base]);
        for (std::size_t p = 0; p < parts.size(); ++p) {
            if (p == base) continue;
            const std::vector<std::uint64_t>& at = ordinals[p];
            key_table& from = parts[p].impl_->at(t);
            m.add_table(t, *parts[p].impl_, [&at](std::uint64_t i) { return at[static_cast<std::size_t>(i)]; });
            from.clear();
        }
    }
    /// Moved in input order into an array made for them, not assigned into
    /// n inputs made empty first.
    void move_inputs() {
        std::size_t n = 0;
        for (const auto& o : ordinals) n += o.size();
        // Where each input of the result comes from: its part, and its index there.
        std::vector<std::pair<std::size_t, std::size_t>> from(n);
        for (std::size_t p = 0; p < ordinals.size(); ++p)
            for (std::size_t i = 0; i < ordinals[p].size(); ++i) from[ordinals[p][i]] = {p, i};
        inputs.reserve(n);
        for (const auto& [p, i] : from) inputs.push_back(std::move(parts[p].impl_->inputs[i]));
        for (report& part : parts) part.impl_->inputs = input_array();
    }
};

report::interleaving::interleaving(std::vector<report> parts, std::vector<std::vector<std::uint64_t>> ordinals)
    : state_(std::make_unique<state>()) {
    if (parts.size() != ordinals.size()) throw std::invalid_argument("report::interleave: a part without ordinals");
    if (parts.empty()) {
        // Nothing to put together: the result is an empty report.
        parts.emplace_back();
        ordinals.emplace_back();
    }
    std::size_t n = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        if (ordinals[p].size() != parts[p].impl_->inputs.size())
            throw std::invalid_argument("report::interleave: ordinals do not match a part's inputs");
        if (!std::is_sorted(ordinals[p].begin(), ordinals[p].end(), std::less_equal<>()))
            throw std::invalid_argument("report::interleave: ordinals out of order");
        n += ordinals[p].size();
    }
    std::vector<bool> seen(n);
    for (const auto& o : ordinals)
        for (const std::uint64_t i : o) {
            if (i >= n || seen[i]) throw std::invalid_argument("report::interleave: ordinals not 0 to n-1 once each");
            seen[i] = true;
        }
    state& s = *state_;
    const auto keys = [](const report& r) {
        std::size_t k = 0;
        for (const key_table& t : r.impl_->tables) k += t.size();
        return k;
    };
    s.base = static_cast<std::size_t>(
        std::max_element(parts.begin(), parts.end(), [&](const report& a, const report& b) { return keys(a) < keys(b); }) -
        parts.begin());
    // How long each step takes, by what it adds or moves.
    std::array<std::size_t, report_table_count + 1> work{};
    for (std::size_t p = 0; p < parts.size(); ++p)
        for (std::size_t t = 0; t < report_table_count; ++t)
            if (p != s.base) work[t] += parts[p].impl_->tables[t].size();
    work[state::inputs_step] = n;
    s.order.resize(work.size());
    std::iota(s.order.begin(), s.order.end(), std::size_t{0});
    std::stable_sort(s.order.begin(), s.order.end(), [&](std::size_t a, std::size_t b) { return work[a] > work[b]; });
    s.parts = std::move(parts);
    s.ordinals = std::move(ordinals);
}

report::interleaving::interleaving(interleaving&&) noexcept = default;
report::interleaving& report::interleaving::operator=(interleaving&&) noexcept = default;
report::interleaving::~interleaving() = default;

std::size_t report::interleaving::steps() const noexcept { return state_->order.size(); }

void report::interleaving::run(std::size_t i) {
    const std::size_t step = state_->order.at(i);
    if (step == state::inputs_step) state_->move_inputs();
    else state_->add_table(static_cast<report_table>(step));
}

report report::interleaving::result() && {
    state& s = *state_;
    std::uint64_t references = 0;
    input_totals totals;
    for (const report& part : s.parts) {
        references += part.impl_->references;
        totals += part.impl_->totals;
    }
    report r = std::move(s.parts[s.base]);
    r.impl_->known_totals.reset();
    r.impl_->references = references;
    r.impl_->inputs = std::move(s.inputs);
    r.impl_->totals = totals;
    state_.reset();
    return r;
}

void report::merge(report&& later) {
    const impl& m = *impl_;
    const bool empty = m.inputs.empty() && m.references == 0 && !m.sketch &&
                       m.exact_url_limit == later.impl_->exact_url_limit &&
                       std::all_of(m.tables.begin(), m.tables.end(), [](const key_table& t) { return t.empty(); });
    // Merged into an empty report, the later one is the result as it is.
    if (empty)
        std::swap(impl_, later.impl_);
    else
        merge(static_cast<const report&>(later));
    later = report();
}

std::span<const report_input> report::inputs() const noexcept { return impl_->inputs; }

std::uint64_t report::references() const noexcept { return impl_->references; }

std::uint64_t report::bytes() const noexcept { return impl_->totals.bytes; }

std::uint64_t report::inputs_with(input_status s) const noexcept {
    return impl_->totals.by_status.at(static_cast<std::size_t>(s));
}

std::uint64_t report::inputs_with_references() const noexcept { return impl_->totals.with_references; }

std::uint64_t report::distinct(report_table t, std::uint64_t min_count) const noexcept {
    const key_table& tab = impl_->at(t);
    if (min_count <= 1) return tab.size();
    const auto entries = tab.entries();
    return static_cast<std::uint64_t>(std::count_if(
        entries.begin(), entries.end(), [min_count](const auto& e) { return e.tally.count >= min_count; }));
}

std::uint64_t report::total(report_table t, std::uint64_t min_count) const noexcept {
    std::uint64_t n = 0;
    for (const auto& e : impl_->at(t).entries())
        if (e.tally.count >= min_count) n += e.tally.count;
    return n;
}

distinct_url_count report::distinct_urls() const noexcept {
    const impl& m = *impl_;
    if (!m.sketch) return {m.at(report_table::url).size(), true, 0};
    return {m.sketch->estimate(), false, detail::url_sketch::relative_error()};
}

std::uint64_t report::exact_url_limit() const noexcept { return impl_->exact_url_limit; }

std::span<const std::uint8_t> report::url_sketch() const noexcept {
    return impl_->sketch ? impl_->sketch->registers() : std::span<const std::uint8_t>{};
}

std::vector<report_row> report::rows(report_table t, std::size_t limit, std::uint64_t min_count) const {
    // Chosen by pointer, so that the top ten of a million keys are not
    // a million rows first.
    std::vector<const key_table::entry*> chosen;
    const auto before = [](const key_table::entry* a, const key_table::entry* b) {
        return a->tally.count != b->tally.count ? a->tally.count > b->tally.count : a->key() < b->key();
    };
    const auto entries = impl_->at(t).entries();
    if (limit != 0 && limit < entries.size() / 8) {
        // A few of many: a heap of the best so far, the last of them on top,
        // instead of a pointer to every entry.
        chosen.reserve(limit + 1);
        for (const auto& e : entries) {
            if (e.tally.count < min_count) continue;
            if (chosen.size() == limit && !before(&e, chosen.front())) continue;
            chosen.push_back(&e);
            std::push_heap(chosen.begin(), chosen.end(), before);
            if (chosen.size() > limit) {
                std::pop_heap(chosen.begin(), chosen.end(), before);
                chosen.pop_back();
            }
        }
        std::sort_heap(chosen.begin(), chosen.end(), before);
    } else {
        for (const auto& e : entries)
            if (e.tally.count >= min_count) chosen.push_back(&e);
        keep_first(chosen, limit, before);
    }
    std::vector<report_row> out;
    out.reserve(chosen.size());
    for (const key_table::entry* e : chosen) out.push_back({e->key(), e->tally.count, e->tally.first});
    return out;
}

std::vector<std::uint64_t> report::top_inputs(std::size_t limit) const {
    // Ranked as (references, ordinal) pairs side by side, so that sorting
    // them reads no input.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranked;
    ranked.reserve(static_cast<std::size_t>(impl_->totals.with_references));
    const auto& ins = impl_->inputs;
    for (std::uint64_t i = 0; i < ins.size(); ++i)
        if (ins[i].references > 0) ranked.emplace_back(ins[i].references, i);
    keep_first(ranked, limit, [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<std::uint64_t> out;
    out.reserve(ranked.size());
    for (const auto& r : ranked) out.push_back(r.second);
    return out;
}

bool operator==(const report& a, const report& b) {
    const auto& x = *a.impl_;
    const auto& y = *b.impl_;
    if (x.references != y.references || x.inputs.size() != y.inputs.size()) return false;
    for (std::size_t i = 0; i < x.inputs.size(); ++i) {
        const auto& p = x.inputs[i];
        const auto& q = y.inputs[i];
        if (p.name != q.name || p.bytes != q.bytes || p.references != q.references || p.status != q.status ||
            p.error != q.error)
            return false;
    }
    return x.tables == y.tables && x.sketch == y.sketch;
}

report merge(report a, const report& b) {
    a.merge(b);
    return a;
}

}  // namespace urlsift
