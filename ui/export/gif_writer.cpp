#include "export/gif_writer.h"

#include <QString>
#include <algorithm>
#include <gif_lib.h>

namespace lifeline::ui {

namespace {

int writeToDevice(GifFileType* gif, const GifByteType* bytes, int length)
{
    auto* out = static_cast<QIODevice*>(gif->UserData);
    return int(out->write(reinterpret_cast<const char*>(bytes), length));
}

Failure gifFailure(const char* what, int error)
{
    const char* why = GifErrorString(error);
    return Failure { std::string("could not write the GIF (") + what + "): " + (why ? why : "unknown error") };
}

// The palette: the style's colours exactly, then a grey ramp and a colour cube for what antialiasing mixes.
std::vector<QRgb> buildPalette(const std::vector<QColor>& colours)
{
    std::vector<QRgb> palette;
    for (const QColor& c : colours)
        if (palette.size() < 96 && std::find(palette.begin(), palette.end(), c.rgb()) == palette.end())
            palette.push_back(c.rgb());
    for (int g = 0; g < 32 && palette.size() < 256; ++g)
        palette.push_back(qRgb(g * 255 / 31, g * 255 / 31, g * 255 / 31));
    for (int r = 0; r < 6; ++r)
        for (int g = 0; g < 6; ++g)
            for (int b = 0; b < 4; ++b)
                if (palette.size() < 256)
                    palette.push_back(qRgb(r * 51, g * 51, b * 85));
    palette.resize(256, qRgb(0, 0, 0));
    return palette;
}

} // namespace

GifWriter::GifWriter(QSize size)
    : m_size(size)
{
}

GifWriter::~GifWriter()
{
    if (m_gif) {
        int error = 0;
        EGifCloseFile(m_gif, &error);
    }
}

Outcome<std::unique_ptr<GifWriter>> GifWriter::open(QIODevice& out, QSize size, const std::vector<QColor>& colours)
{
    std::unique_ptr<GifWriter> writer(new GifWriter(size));
    writer->m_palette = buildPalette(colours);
    int error = 0;
    writer->m_gif = EGifOpen(&out, writeToDevice, &error);
    if (!writer->m_gif)
        return gifFailure("open", error);
    EGifSetGifVersion(writer->m_gif, true);
    std::vector<GifColorType> entries(256);
    for (size_t i = 0; i < 256; ++i)
        entries[i] = { GifByteType(qRed(writer->m_palette[i])), GifByteType(qGreen(writer->m_palette[i])),
            GifByteType(qBlue(writer->m_palette[i])) };
    ColorMapObject* map = GifMakeMapObject(256, entries.data());
    const int described = EGifPutScreenDesc(writer->m_gif, size.width(), size.height(), 8, 0, map);
    GifFreeMapObject(map);
    if (described == GIF_ERROR)
        return gifFailure("screen", writer->m_gif->Error);
    // Loop for ever (the Netscape application extension).
    const GifByteType loop[3] = { 1, 0, 0 };
    if (EGifPutExtensionLeader(writer->m_gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR
        || EGifPutExtensionBlock(writer->m_gif, 11, "NETSCAPE2.0") == GIF_ERROR
        || EGifPutExtensionBlock(writer->m_gif, 3, loop) == GIF_ERROR
        || EGifPutExtensionTrailer(writer->m_gif) == GIF_ERROR)
        return gifFailure("loop", writer->m_gif->Error);
    writer->m_previous.assign(size_t(size.width()) * size_t(size.height()), 0);
    return writer;
}

uint8_t GifWriter::indexOf(QRgb rgb)
{
    rgb |= 0xff000000u;
    if (const auto it = m_nearest.find(rgb); it != m_nearest.end())
        return it->second;
    int best = 0;
    int bestDistance = INT32_MAX;
    for (size_t i = 0; i < m_palette.size(); ++i) {
        const int dr = qRed(rgb) - qRed(m_palette[i]), dg = qGreen(rgb) - qGreen(m_palette[i]),
                  db = qBlue(rgb) - qBlue(m_palette[i]);
        const int distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
        if (distance < bestDistance) {
            bestDistance = distance;
            best = int(i);
        }
    }
    m_nearest.emplace(rgb, uint8_t(best));
    return uint8_t(best);
}

Outcome<> GifWriter::add(const QImage& image, int centiseconds)
{
    const QImage frame = image.convertToFormat(QImage::Format_RGB32);
    const int width = m_size.width(), height = m_size.height();
    if (frame.size() != m_size)
        return Failure { "a frame of another size than the GIF's" };
    // Index the frame and find the rectangle that changed since the last one.
    std::vector<uint8_t> indexed(m_previous.size());
    int left = width, right = -1, top = height, bottom = -1;
    for (int y = 0; y < height; ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(frame.constScanLine(y));
        uint8_t* out = indexed.data() + size_t(y) * size_t(width);
        const uint8_t* before = m_previous.data() + size_t(y) * size_t(width);
        for (int x = 0; x < width; ++x) {
            out[x] = indexOf(line[x]);
            if (m_first || out[x] != before[x]) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
        }
    }
    if (right < 0) // nothing changed: one unchanged pixel keeps the frame (and its time)
        left = right = top = bottom = 0;
    GraphicsControlBlock control {};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.DelayTime = std::max(1, centiseconds);
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const size_t length = EGifGCBToExtension(&control, extension);
    if (EGifPutExtension(m_gif, GRAPHICS_EXT_FUNC_CODE, int(length), extension) == GIF_ERROR
        || EGifPutImageDesc(m_gif, left, top, right - left + 1, bottom - top + 1, false, nullptr) == GIF_ERROR)
        return gifFailure("frame", m_gif->Error);
    for (int y = top; y <= bottom; ++y)
        if (EGifPutLine(m_gif, indexed.data() + size_t(y) * size_t(width) + size_t(left), right - left + 1)
            == GIF_ERROR)
            return gifFailure("pixels", m_gif->Error);
    m_previous.swap(indexed);
    m_first = false;
    return {};
}

Outcome<> GifWriter::finish()
{
    int error = 0;
    const int closed = EGifCloseFile(m_gif, &error);
    m_gif = nullptr;
    if (closed == GIF_ERROR)
        return gifFailure("close", error);
    return {};
}

} // namespace lifeline::ui
