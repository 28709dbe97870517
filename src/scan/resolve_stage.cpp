// The resolution stage: references as the scanner found them, made absolute
// against a base (Section 5.2). It runs after the scanner, so the scanner
// never needs to know the base, and a filter can choose its own.

#include <urlsift/found_reference.hpp>

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
    // Appendix F: an abbreviated URL is completed, not resolved; the
    // scanner has already written its absolute form.
    if (ref.form == reference_form::abbreviated) return;
    std::string scratch;
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
