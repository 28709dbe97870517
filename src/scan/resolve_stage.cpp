// The resolution stage: references as the scanner found them, made absolute
// against a base (Section 5.2). It runs after the scanner, so the scanner
// never needs to know the base, and a filter can choose its own.

#include <urlsift/found_reference.hpp>
#include <urlsift/resolution.hpp>

#include <utility>

namespace urlsift {

namespace {

/// `text` resolved against `base`, or left as it is when the resolver rejects it.
void resolve_in_place(std::string& text, const resolver& base, std::string& scratch) {
    scratch.clear();
    if (!base.resolve_to(scratch, text)) text.swap(scratch);
}

}  // namespace

void resolve_reference(found_reference& ref, const resolver& base) {
    // Section 5.2 (step 3 of the draft, 5.2.2 of RFC 3986): a reference with
    // a scheme is absolute already, and the rfc modes without normalization
    // give it back as written whether they accept it or not. Most of what a
    // text holds is such a URL; it needs no trip through the resolver. So
    // is an abbreviated URL (Appendix F), which the scanner has completed:
    // the browser mode and normalization then give it the same canonical
    // form as the URL written out in full.
    const resolve_options& how = base.options();
    if (ref.form != reference_form::relative && how.mode != resolve_mode::browser && !how.normalize) return;
    // Reused: its buffer goes back and forth with the reference's strings.
    thread_local std::string scratch;
    resolve_in_place(ref.url, base, scratch);
    for (auto& alternative : ref.alternatives) resolve_in_place(alternative, base, scratch);
}

reference_sink resolving(resolver base, reference_sink next) {
    return [base = std::move(base), next = std::move(next)](found_reference& ref) {
        resolve_reference(ref, base);
        return next(ref);
    };
}

}  // namespace urlsift
