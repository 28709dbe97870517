#pragma once
// The walk read_mail makes through a message, for the stages that work on
// GMime's parts themselves (rewrite_message.cpp): each leaf with the base
// Section 5.1 gives it, computed once, in read_mail.cpp.

#include <urlsift/mail.hpp>

#include <gmime/gmime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace urlsift::detail {

struct gobject_unref {
    void operator()(void* p) const noexcept {
        if (p != nullptr) g_object_unref(p);
    }
};
/// A GObject this code holds a reference to.
template <class T>
using gobject_ptr = std::unique_ptr<T, gobject_unref>;

/// g_mime_init, once per process.
void init_gmime();

/// A GMime memory stream over bytes the caller keeps, not a copy of them
/// (g_mime_stream_mem_new_with_buffer copies: a message held whole would be
/// held twice). The bytes must outlive it and every stream GMime makes of
/// it (the parts' bodies); nothing may write to it.
class borrowed_stream {
public:
    explicit borrowed_stream(std::string_view bytes);
    ~borrowed_stream();
    borrowed_stream(const borrowed_stream&) = delete;
    borrowed_stream& operator=(const borrowed_stream&) = delete;
    GMimeStream* get() const noexcept { return stream_.get(); }

private:
    GByteArray* array_;
    gobject_ptr<GMimeStream> stream_;
};

/// Undoes a transfer encoding block by block, with GMime's decoder (7bit,
/// 8bit and binary pass as they are). Base64 whose last quantum lacks its
/// `=` padding keeps that quantum, which GMime's decoder alone would drop.
class transfer_decoder {
public:
    explicit transfer_decoder(GMimeContentEncoding encoding);
    /// Appends to `out` what `encoded`, the next bytes of the body, decode to.
    void feed(std::string_view encoded, std::string& out);
    /// Appends the rest, once the body has been fed.
    void finish(std::string& out);

private:
    void step(std::string_view encoded, std::string& out, bool last);

    GMimeContentEncoding encoding_;
    GMimeEncoding state_{};
    bool decodes_ = false;
    std::uint64_t base64_chars_ = 0; ///< base64: the alphabet's characters seen
    bool padded_ = false;            ///< base64: an `=` was seen
};

/// `encoded`, a whole body in transfer encoding `encoding`, decoded.
std::string decode_transfer(std::string_view encoded, GMimeContentEncoding encoding);

/// A leaf part as the walk meets it.
struct leaf_visit {
    GMimePart* part;
    /// Its path, content type and base; `text` and `links` are empty.
    const mail_part& info;
    /// In a multipart/signed or multipart/encrypted part (RFC 1847):
    /// "signed" or "encrypted"; empty outside one.
    std::string_view sealed_as;
    /// That part's path ("" when it is the message's body).
    std::string_view sealed_path;
};
using leaf_visitor = std::function<void(const leaf_visit&)>;

/// Walks `message` as read_mail does (multipart and message/rfc822
/// recursion, IMAP part paths, Section 5.1 bases), calling `visit` for every
/// leaf part in order: text or not, each alternative of a
/// multipart/alternative.
void walk_leaves(GMimeMessage* message, const leaf_visitor& visit);

}  // namespace urlsift::detail
