#include "gui/help/DocumentationDialog.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLocale>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {

constexpr auto kIndex = "index.md";

/// `page` in Chinese where the guide has it (zh_CN/), else in English.
QString localized(const QString &folder, const QString &page)
{
    if (QLocale().language() == QLocale::Chinese) {
        const QString translated = QDir(folder).filePath(QStringLiteral("zh_CN/") + page);
        if (QFileInfo(translated).isFile()) {
            return translated;
        }
    }
    return QDir(folder).filePath(page);
}

} // namespace

QString DocumentationDialog::guideFolder()
{
    for (const QString &folder :
         {QStringLiteral(LLM_SANDBOX_GUIDE_INSTALLED), QStringLiteral(LLM_SANDBOX_GUIDE_SOURCE)}) {
        if (QFileInfo(QDir(folder).filePath(QLatin1String(kIndex))).isFile()) {
            return folder;
        }
    }
    return {};
}

QString DocumentationDialog::slug(const QString &heading)
{
    QString slug = heading.trimmed().toLower();
    slug.remove(QRegularExpression(QStringLiteral("[^\\w\\- ]"), QRegularExpression::UseUnicodePropertiesOption));
    slug.replace(QLatin1Char(' '), QLatin1Char('-'));
    return slug;
}

DocumentationDialog::DocumentationDialog(const QString &folder, const QString &page, const QString &section,
                                         QWidget *parent)
    : QDialog(parent), m_folder(QDir(folder).absolutePath())
{
    setObjectName(QStringLiteral("documentationDialog"));
    setWindowTitle(tr("LLM Sandbox Documentation"));

    m_back = new QToolButton;
    m_back->setObjectName(QStringLiteral("documentationBack"));
    m_back->setIcon(QIcon::fromTheme(QStringLiteral("go-previous")));
    m_back->setText(tr("Back"));
    m_back->setToolTip(tr("Back (Alt+Left)"));
    m_back->setShortcut(QKeySequence::Back);
    m_forward = new QToolButton;
    m_forward->setObjectName(QStringLiteral("documentationForward"));
    m_forward->setIcon(QIcon::fromTheme(QStringLiteral("go-next")));
    m_forward->setText(tr("Forward"));
    m_forward->setToolTip(tr("Forward (Alt+Right)"));
    m_forward->setShortcut(QKeySequence::Forward);
    auto *contents = new QToolButton;
    contents->setObjectName(QStringLiteral("documentationContents"));
    contents->setIcon(QIcon::fromTheme(QStringLiteral("go-home")));
    contents->setText(tr("Contents"));
    contents->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    for (QToolButton *button : {m_back, m_forward}) {
        button->setToolButtonStyle(Qt::ToolButtonIconOnly);
        if (button->icon().isNull()) {
            button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        }
    }

    m_browser = new QTextBrowser;
    m_browser->setObjectName(QStringLiteral("documentationText"));
    // Every link is judged here (open()): the guide's own pages, or the web in the browser.
    m_browser->setOpenLinks(false);
    m_browser->setOpenExternalLinks(false);
    connect(m_browser, &QTextBrowser::anchorClicked, this, &DocumentationDialog::open);
    connect(m_browser, &QTextBrowser::historyChanged, this, &DocumentationDialog::updateButtons);
    connect(m_back, &QToolButton::clicked, m_browser, &QTextBrowser::backward);
    connect(m_forward, &QToolButton::clicked, m_browser, &QTextBrowser::forward);
    connect(contents, &QToolButton::clicked, this,
            [this] { open(QUrl::fromLocalFile(localized(m_folder, QLatin1String(kIndex)))); });

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_back);
    bar->addWidget(m_forward);
    bar->addWidget(contents);
    bar->addStretch();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(900, 700);

    QUrl start = QUrl::fromLocalFile(localized(m_folder, page.isEmpty() ? QString::fromLatin1(kIndex) : page));
    if (!section.isEmpty()) {
        start.setFragment(slug(section));
    }
    open(start);
    updateButtons();
}

QUrl DocumentationDialog::source() const
{
    return m_browser->source();
}

void DocumentationDialog::open(const QUrl &link)
{
    if (link.scheme() == QLatin1String("http") || link.scheme() == QLatin1String("https")) {
        QDesktopServices::openUrl(link);
        return;
    }
    const QUrl url = m_browser->source().isEmpty() ? link : m_browser->source().resolved(link);
    if (!url.isLocalFile()) {
        return;
    }
    // The guide and the documents beside it (docs/), Markdown only: never another file of the machine.
    const QString path = QFileInfo(url.toLocalFile()).absoluteFilePath();
    const QString root = QFileInfo(m_folder).absolutePath() + QLatin1Char('/');
    if (!path.startsWith(root) || !path.endsWith(QLatin1String(".md")) || !QFileInfo(path).isFile()) {
        return;
    }
    QUrl page = QUrl::fromLocalFile(path);
    if (page != m_browser->source().adjusted(QUrl::RemoveFragment)) {
        m_browser->setSource(page, QTextDocument::MarkdownResource);
    }
    scrollToSection(url.fragment());
}

void DocumentationDialog::scrollToSection(const QString &section)
{
    if (section.isEmpty()) {
        m_browser->verticalScrollBar()->setValue(0);
        return;
    }
    const QString wanted = slug(section);
    for (QTextBlock block = m_browser->document()->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() > 0 && slug(block.text()) == wanted) {
            QTextCursor cursor(block);
            m_browser->setTextCursor(cursor);
            // At the top of the view, once it is laid out.
            QTimer::singleShot(0, m_browser, [this, position = block.position()] {
                const QRect at = m_browser->cursorRect(QTextCursor(m_browser->document()->findBlock(position)));
                m_browser->verticalScrollBar()->setValue(m_browser->verticalScrollBar()->value() + at.top());
            });
            return;
        }
    }
}

void DocumentationDialog::updateButtons()
{
    m_back->setEnabled(m_browser->isBackwardAvailable());
    m_forward->setEnabled(m_browser->isForwardAvailable());
}

} // namespace sandbox::gui
