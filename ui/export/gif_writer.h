// An animated GIF through giflib: a fixed palette built from the timeline style's colours (flat colours stay exact,
// no dithering; antialiased edges take the nearest entry), each frame written as the rectangle that changed since
// the previous one, looping for ever.
#pragma once

#include "lifeline/support/outcome.h"

#include <QColor>
#include <QIODevice>
#include <QImage>
#include <memory>
#include <unordered_map>
#include <vector>

struct GifFileType;

namespace lifeline::ui {

class GifWriter {
public:
    // Writes to `out` (open for writing) frames of `size`; `colours` go into the palette first (up to 256 in all).
    static Outcome<std::unique_ptr<GifWriter>> open(QIODevice& out, QSize size, const std::vector<QColor>& colours);
    ~GifWriter();
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    // A frame shown for `centiseconds`.
    Outcome<> add(const QImage& frame, int centiseconds);
    // Ends the file (the trailer); nothing is written after it.
    Outcome<> finish();

private:
    explicit GifWriter(QSize size);
    uint8_t indexOf(QRgb rgb);

    QSize m_size;
    GifFileType* m_gif = nullptr;
    std::vector<QRgb> m_palette;
    std::unordered_map<QRgb, uint8_t> m_nearest; // each colour met, mapped once
    std::vector<uint8_t> m_previous; // the last frame written, indexed
    bool m_first = true;
};

} // namespace lifeline::ui
