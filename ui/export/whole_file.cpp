#include "export/whole_file.h"

#include <QFileInfo>
#include <QSaveFile>

namespace lifeline::ui {

Outcome<> writeWholeFile(const QString& path, std::string_view bytes)
{
    // A link where the file goes is not followed: it may lead out of the folder (a site's output, written again and
    // again), and QSaveFile would overwrite what it names.
    if (QFileInfo(path).isSymLink())
        return Failure { "not writing " + path.toStdString()
            + ": it is a symbolic link (it may lead out of the folder); remove it, or write elsewhere" };
    QSaveFile file(path);
    // Unbuffered: a full disk then fails the write with the system's reason; buffered, commit() failed with
    // "Unknown error".
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return Failure { "cannot write " + path.toStdString() + ": " + file.errorString().toStdString() };
    // A short write is tried again, so that the one that fails says why (a full disk: "No space left on device").
    for (qint64 done = 0; done < qint64(bytes.size());) {
        const qint64 written = file.write(bytes.data() + done, qint64(bytes.size()) - done);
        if (written <= 0)
            return Failure { "cannot write " + path.toStdString() + ": " + file.errorString().toStdString() };
        done += written;
    }
    if (!file.commit())
        return Failure { "cannot write " + path.toStdString() + ": " + file.errorString().toStdString() };
    return {};
}

} // namespace lifeline::ui
