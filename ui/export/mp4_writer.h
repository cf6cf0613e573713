// An MP4 (H.264, yuv420p: what browsers and slide software play) through FFmpeg's libraries from Debian
// (libavformat, libavcodec with libx264, libswscale). Written to FILE.part and renamed when whole, so a failed or
// cancelled export leaves no partial file.
#pragma once

#include "lifeline/support/outcome.h"

#include <QImage>
#include <QString>
#include <memory>

namespace lifeline::ui {

class Mp4Writer {
public:
    // `size` must be even in both directions (yuv420p); `fps` frames a second.
    static Outcome<std::unique_ptr<Mp4Writer>> open(const QString& path, QSize size, int fps);
    ~Mp4Writer(); // unfinished: the partial file is removed
    Mp4Writer(const Mp4Writer&) = delete;
    Mp4Writer& operator=(const Mp4Writer&) = delete;

    Outcome<> add(const QImage& frame);
    Outcome<> finish(); // flushes the encoder, writes the trailer, renames FILE.part to FILE

private:
    struct Encoder;
    explicit Mp4Writer(std::unique_ptr<Encoder> encoder);
    std::unique_ptr<Encoder> m_encoder;
};

} // namespace lifeline::ui
