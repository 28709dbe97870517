#pragma once
// URLSIFT_EXPORT marks what a shared liburlsift makes visible: the library
// is built with hidden visibility, so only the public API is exported.
// A static library (URLSIFT_STATIC, set by the CMake package and the
// pkg-config file) needs no marks.

#if defined(URLSIFT_STATIC)
#define URLSIFT_EXPORT
#elif defined(_WIN32)
#if defined(URLSIFT_BUILDING)
#define URLSIFT_EXPORT __declspec(dllexport)
#else
#define URLSIFT_EXPORT __declspec(dllimport)
#endif
#else
#define URLSIFT_EXPORT __attribute__((visibility("default")))
#endif
