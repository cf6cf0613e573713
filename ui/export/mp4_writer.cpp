#include "export/mp4_writer.h"

#include <QFile>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace lifeline::ui {

namespace {
Failure avFailure(const char* what, int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return Failure { std::string("could not write the MP4 (") + what + "): " + text };
}
} // namespace

struct Mp4Writer::Encoder {
    QString path, part;
    AVFormatContext* format = nullptr;
    AVCodecContext* codec = nullptr;
    AVStream* stream = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    SwsContext* scale = nullptr;
    int64_t next = 0;
    bool headerWritten = false;
    bool finished = false;

    ~Encoder()
    {
        if (headerWritten && !finished)
            av_write_trailer(format);
        if (format && format->pb)
            avio_closep(&format->pb);
        avformat_free_context(format);
        avcodec_free_context(&codec);
        av_frame_free(&frame);
        av_packet_free(&packet);
        sws_freeContext(scale);
        if (!finished && !part.isEmpty())
            QFile::remove(part);
    }

    // Sends a frame (nullptr: the end) and writes every packet the encoder has ready.
    Outcome<> encode(AVFrame* input)
    {
        if (const int sent = avcodec_send_frame(codec, input); sent < 0)
            return avFailure("encode", sent);
        for (;;) {
            const int received = avcodec_receive_packet(codec, packet);
            if (received == AVERROR(EAGAIN) || received == AVERROR_EOF)
                return {};
            if (received < 0)
                return avFailure("encode", received);
            av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
            packet->stream_index = stream->index;
            const int written = av_interleaved_write_frame(format, packet);
            av_packet_unref(packet);
            if (written < 0)
                return avFailure("write", written);
        }
    }
};

Mp4Writer::Mp4Writer(std::unique_ptr<Encoder> encoder)
    : m_encoder(std::move(encoder))
{
}

Mp4Writer::~Mp4Writer() = default;

Outcome<std::unique_ptr<Mp4Writer>> Mp4Writer::open(const QString& path, QSize size, int fps)
{
    if (size.width() % 2 != 0 || size.height() % 2 != 0)
        return Failure { "an MP4's width and height must be even, got " + std::to_string(size.width()) + "x"
            + std::to_string(size.height()) };
    av_log_set_level(AV_LOG_ERROR); // libx264 reports its settings and statistics otherwise
    auto e = std::make_unique<Encoder>();
    e->path = path;
    e->part = path + QStringLiteral(".part");
    const QByteArray part = e->part.toLocal8Bit();
    if (const int made = avformat_alloc_output_context2(&e->format, nullptr, "mp4", part.constData()); made < 0)
        return avFailure("container", made);
    const AVCodec* h264 = avcodec_find_encoder(AV_CODEC_ID_H264);
    if (!h264)
        return Failure { "this FFmpeg has no H.264 encoder (Debian's links libx264)" };
    e->stream = avformat_new_stream(e->format, nullptr);
    e->codec = avcodec_alloc_context3(h264);
    e->packet = av_packet_alloc();
    e->frame = av_frame_alloc();
    if (!e->stream || !e->codec || !e->packet || !e->frame)
        return Failure { "out of memory" };
    e->codec->width = size.width();
    e->codec->height = size.height();
    e->codec->time_base = AVRational { 1, fps };
    e->codec->framerate = AVRational { fps, 1 };
    e->codec->pix_fmt = AV_PIX_FMT_YUV420P;
    e->codec->gop_size = fps * 2;
    if (e->format->oformat->flags & AVFMT_GLOBALHEADER)
        e->codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    av_opt_set(e->codec->priv_data, "preset", "veryfast", 0);
    av_opt_set(e->codec->priv_data, "crf", "20", 0);
    if (const int opened = avcodec_open2(e->codec, h264, nullptr); opened < 0)
        return avFailure("H.264 encoder", opened);
    avcodec_parameters_from_context(e->stream->codecpar, e->codec);
    e->stream->time_base = e->codec->time_base;
    if (const int io = avio_open(&e->format->pb, part.constData(), AVIO_FLAG_WRITE); io < 0)
        return avFailure("open", io);
    if (const int header = avformat_write_header(e->format, nullptr); header < 0)
        return avFailure("header", header);
    e->headerWritten = true;
    e->frame->format = AV_PIX_FMT_YUV420P;
    e->frame->width = size.width();
    e->frame->height = size.height();
    if (const int buffer = av_frame_get_buffer(e->frame, 0); buffer < 0)
        return avFailure("frame", buffer);
    e->scale = sws_getContext(size.width(), size.height(), AV_PIX_FMT_BGRA, size.width(), size.height(),
        AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
    if (!e->scale)
        return Failure { "could not convert RGB to YUV" };
    return std::unique_ptr<Mp4Writer>(new Mp4Writer(std::move(e)));
}

Outcome<> Mp4Writer::add(const QImage& image)
{
    Encoder& e = *m_encoder;
    const QImage frame = image.convertToFormat(QImage::Format_RGB32); // BGRA in memory on this little-endian machine
    if (frame.width() != e.codec->width || frame.height() != e.codec->height)
        return Failure { "a frame of another size than the MP4's" };
    if (const int writable = av_frame_make_writable(e.frame); writable < 0)
        return avFailure("frame", writable);
    const uint8_t* planes[1] = { frame.constBits() };
    const int strides[1] = { int(frame.bytesPerLine()) };
    sws_scale(e.scale, planes, strides, 0, frame.height(), e.frame->data, e.frame->linesize);
    e.frame->pts = e.next++;
    return e.encode(e.frame);
}

Outcome<> Mp4Writer::finish()
{
    Encoder& e = *m_encoder;
    if (auto flushed = e.encode(nullptr); !flushed)
        return flushed;
    if (const int trailer = av_write_trailer(e.format); trailer < 0)
        return avFailure("trailer", trailer);
    e.finished = true;
    avio_closep(&e.format->pb);
    QFile::remove(e.path);
    if (!QFile::rename(e.part, e.path)) {
        QFile::remove(e.part);
        return Failure { "could not rename " + e.part.toStdString() + " to " + e.path.toStdString() };
    }
    return {};
}

} // namespace lifeline::ui
