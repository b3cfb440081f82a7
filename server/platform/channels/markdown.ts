/** Markdown to the simple HTML an email carries beside the text. */
export function markdownToHtml(markdown: string): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const inline = (text: string) =>
    escape(text)
      .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '<a href="$2">$1</a>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  return markdown
    .split(/\n{2,}/)
    .map((block) =>
      block.split('\n').every((line) => line.startsWith('- '))
        ? `<ul>${block.split('\n').map((line) => `<li>${inline(line.slice(2))}</li>`).join('')}</ul>`
        : `<p>${block.split('\n').map(inline).join('<br>')}</p>`,
    )
    .join('\n');
}
