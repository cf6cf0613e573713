#include "window/theme.h"

#include <QApplication>
#include <QPainter>
#include <QPalette>
#include <QProxyStyle>
#include <QStyleFactory>
#include <QStyleOption>

namespace lifeline::ui {

namespace {
// Fusion, with check boxes and radio buttons edged in half the text's colour: Fusion edges them a shade darker than
// the window (1.7:1 in the light theme, 1.2:1 in the dark one, where the box is as dark as the window), and a
// control's boundary needs 3:1 (WCAG 1.4.11; tests/ui/test_contrast.cpp).
class LifelineStyle final : public QProxyStyle {
public:
    using QProxyStyle::QProxyStyle;

    void drawPrimitive(
        PrimitiveElement element, const QStyleOption* option, QPainter* painter, const QWidget* widget) const override
    {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        if (element != PE_IndicatorCheckBox && element != PE_IndicatorRadioButton)
            return;
        const QColor text = option->palette.color(QPalette::WindowText);
        const QColor window = option->palette.color(QPalette::Window);
        const QColor edge(
            (text.red() + window.red()) / 2, (text.green() + window.green()) / 2, (text.blue() + window.blue()) / 2);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(edge, 1));
        const QRectF box = QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5);
        if (element == PE_IndicatorRadioButton)
            painter->drawEllipse(box);
        else
            painter->drawRect(box);
        painter->restore();
    }
};
} // namespace

namespace {
// White on black, yellow for what is selected: text at 21:1, a control's text and edges at 3:1 or more.
void applyHighContrast()
{
    QPalette p;
    const QColor black(0, 0, 0), white(0xFF, 0xFF, 0xFF), yellow(0xFF, 0xFF, 0x00);
    for (const QPalette::ColorRole role :
        { QPalette::Window, QPalette::Base, QPalette::AlternateBase, QPalette::ToolTipBase, QPalette::Button })
        p.setColor(role, black);
    for (const QPalette::ColorRole role :
        { QPalette::WindowText, QPalette::Text, QPalette::ToolTipText, QPalette::ButtonText, QPalette::BrightText })
        p.setColor(role, white);
    // Fusion draws frames and edges from these: mid grey on black is 5.3:1.
    p.setColor(QPalette::Light, QColor(0xC0, 0xC0, 0xC0));
    p.setColor(QPalette::Midlight, QColor(0xA0, 0xA0, 0xA0));
    p.setColor(QPalette::Mid, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Dark, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Shadow, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Link, QColor(0x5F, 0xD7, 0xFF));
    p.setColor(QPalette::LinkVisited, QColor(0xD7, 0xA0, 0xFF));
    p.setColor(QPalette::Highlight, yellow);
    p.setColor(QPalette::HighlightedText, black);
    p.setColor(QPalette::PlaceholderText, QColor(0xB0, 0xB0, 0xB0));
    for (const QPalette::ColorRole role : { QPalette::Text, QPalette::ButtonText, QPalette::WindowText })
        p.setColor(QPalette::Disabled, role, QColor(0x9A, 0x9A, 0x9A)); // 7.4:1: dimmed, still read
    QApplication::setPalette(p);
    // Fusion edges fields and grooves in a shade of the window, black on black here: they get edges of their own.
    qApp->setStyleSheet(QStringLiteral(
        "QAbstractSpinBox, QLineEdit, QComboBox { border: 1px solid #c0c0c0; border-radius: 2px; padding: 1px 3px; }"
        "QSlider::groove:horizontal { height: 4px; background: #808080; }"
        "QSlider::sub-page:horizontal { background: #ffff00; }"
        "QSlider::handle:horizontal { background: #ffffff; width: 12px; margin: -6px 0; border-radius: 3px; }"));
}
} // namespace

void applyApplicationTheme(Theme theme)
{
    // Fusion draws the palette faithfully on every platform, so every theme looks as designed.
    if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion")))
        QApplication::setStyle(new LifelineStyle(fusion));
    qApp->setStyleSheet(QString());
    if (theme == Theme::Light) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    if (theme == Theme::HighContrast) {
        applyHighContrast();
        return;
    }
    QPalette p;
    const QColor window(0x2A, 0x2C, 0x30), base(0x1E, 0x1F, 0x22), text(0xE8, 0xE8, 0xE8);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2C));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    // Fusion draws check boxes, slider handles and buttons from Button and outlines them from Window: a Button as
    // dark as the window leaves them nearly invisible (1.1:1); this one stands at 2.2:1 against it with its text at
    // 5.4:1 on it (3:1 and 4.5:1 together are out of reach on this window: tests/ui/test_contrast.cpp).
    p.setColor(QPalette::Button, QColor(0x5A, 0x5F, 0x66));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xFF, 0x6B, 0x5E));
    p.setColor(QPalette::Link, QColor(0x56, 0xB4, 0xE9));
    p.setColor(QPalette::Highlight, QColor(0x00, 0x72, 0xB2));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x9A, 0x9A, 0x9A));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    QApplication::setPalette(p);
}

} // namespace lifeline::ui
