// LessonBrowser: the lesson's text. A lesson is untrusted input (a class shares them), and
// QTextBrowser would load any image it names, whole: /dev/zero grew the window to 11.5 GB in
// 10 s. Here an image is only loaded from a regular file inside the lesson's folder, of at
// most kMaxLessonImageBytes and kMaxLessonImageSide pixels a side; anything else shows as a
// grey 16 × 16 box, and nothing else (style sheets, other documents) is loaded at all.
#pragma once

#include <QString>
#include <QTextBrowser>

namespace cuwb {

inline constexpr qint64 kMaxLessonImageBytes = 4 << 20;
inline constexpr int kMaxLessonImageSide = 4096;

class LessonBrowser : public QTextBrowser
{
    Q_OBJECT

public:
    explicit LessonBrowser(QWidget *parent = nullptr);

    // Where the lesson's images may come from; empty: nowhere.
    void setLessonFolder(const QString &folder) { m_folder = folder; }

    QVariant loadResource(int type, const QUrl &name) override;

private:
    QString m_folder;
};

} // namespace cuwb
