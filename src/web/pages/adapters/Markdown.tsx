import type { ReactNode } from 'react';
import type { MarkdownBlock, MarkdownInline, MarkdownList } from '../../../core/markdown/parseMarkdown';

function renderInlines(inlines: MarkdownInline[]): ReactNode[] {
  return inlines.map((inline, index) => {
    if (inline.kind === 'text') return inline.text;
    if (inline.kind === 'code') return <code key={index}>{inline.text}</code>;
    if (inline.kind === 'strong') return <strong key={index}>{renderInlines(inline.children)}</strong>;
    return (
      <a key={index} href={inline.href} target="_blank" rel="noreferrer noopener">
        {renderInlines(inline.children)}
      </a>
    );
  });
}

function List({ list }: { list: MarkdownList }) {
  const Tag = list.ordered ? 'ol' : 'ul';
  return (
    <Tag>
      {list.items.map((item, index) => (
        <li key={index}>
          {renderInlines(item.inlines)}
          {item.lists.map((nested, nestedIndex) => (
            <List key={nestedIndex} list={nested} />
          ))}
        </li>
      ))}
    </Tag>
  );
}

/** Parsed Markdown as React elements: text is always escaped by React, never injected as HTML. */
export function Markdown({ blocks }: { blocks: MarkdownBlock[] }) {
  return (
    <div className="markdown">
      {blocks.map((block, index) => {
        if (block.kind === 'list') return <List key={index} list={block} />;
        if (block.kind === 'paragraph') return <p key={index}>{renderInlines(block.inlines)}</p>;
        const Heading = block.level === 3 ? 'h3' : 'h2';
        return <Heading key={index}>{renderInlines(block.inlines)}</Heading>;
      })}
    </div>
  );
}
