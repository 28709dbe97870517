#pragma once
// The resolution stage: references as the scanner (or a document's reader)
// found them, made absolute against a base after it (Section 5), so that
// the scanner never needs to know the base.

#include <urlsift/export.hpp>
#include <urlsift/found_reference.hpp>
#include <urlsift/resolver.hpp>

namespace urlsift {

/// The resolution stage (Section 5.2): makes `ref.url` and its alternatives
/// absolute against `base`. Abbreviated URLs, which Appendix F completes
/// without a base, are left as completed; a reference the resolver rejects
/// keeps its written form.
///
///     found_reference r = ...;            // r.url == "../g", r.form == relative
///     resolve_reference(r, *urlsift::resolver::make("http://a/b/c/d;p?q"));
///     // r.url == "http://a/b/g"
URLSIFT_EXPORT void resolve_reference(found_reference& ref, const resolver& base);

/// A sink that resolves each reference against `base`, then hands it to `next`.
URLSIFT_EXPORT reference_sink resolving(resolver base, reference_sink next);

}  // namespace urlsift
