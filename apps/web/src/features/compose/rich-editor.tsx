import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n';
import clsx from 'clsx';
import { Bold, Italic, Link2, List, ListOrdered, Quote } from 'lucide-react';
import { Editor, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import styles from './compose.module.css';

/**
 * What the rich mode offers (issue #5: bold, italic, lists, links, quote); headings, code and rules stay out so
 * a message looks like mail, not a document.
 */
const extensions = [
  StarterKit.configure({
    heading: false,
    code: false,
    codeBlock: false,
    horizontalRule: false,
    strike: false,
    link: {
      openOnClick: false,
      autolink: true,
      defaultProtocol: 'https',
      protocols: ['http', 'https', 'mailto'],
      HTMLAttributes: { rel: 'noopener noreferrer', target: '_blank' },
    },
  }),
];

/**
 * The HTML the editor would give back for `html`: what it keeps of a signature or a quote. Used to find a block
 * the window put in the body (the signature) in the editor's own output.
 */
export function normalizeHtml(html: string): string {
  const editor = new Editor({ extensions, content: html });
  const out = editor.getHTML();
  editor.destroy();
  return out;
}

export interface RichEditorProps {
  /** The starting content; later changes are pushed in only when `revision` changes. */
  html: string;
  revision: number;
  label: string;
  /** Put the cursor at the start (a reply: recipients are filled, the text comes first). */
  autoFocus?: boolean;
  onChange(html: string): void;
}

/** TipTap with a small toolbar; loaded only with the compose window (DESIGN §5). */
export function RichEditor({ html, revision, label, autoFocus = false, onChange }: RichEditorProps) {
  const { t } = useTranslation();
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const editor = useEditor({
    extensions,
    content: html,
    autofocus: autoFocus ? 'start' : false,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: { 'aria-label': label, 'aria-multiline': 'true', role: 'textbox', class: styles.prose! },
    },
    onUpdate: ({ editor: current }) => onChangeRef.current(current.getHTML()),
  });

  // A new revision (From changed the signature, the mode changed) replaces the content.
  const shown = useRef(revision);
  useEffect(() => {
    if (shown.current === revision) return;
    shown.current = revision;
    editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, html, revision]);

  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
      blockquote: current.isActive('blockquote'),
      link: current.isActive('link'),
    }),
  });
  const [linkOpen, setLinkOpen] = useState(false);

  const tools = [
    {
      key: 'bold',
      icon: Bold,
      label: t('compose.bold'),
      run: () => editor.chain().focus().toggleBold().run(),
    },
    {
      key: 'italic',
      icon: Italic,
      label: t('compose.italic'),
      run: () => editor.chain().focus().toggleItalic().run(),
    },
    {
      key: 'bulletList',
      icon: List,
      label: t('compose.bulletList'),
      run: () => editor.chain().focus().toggleBulletList().run(),
    },
    {
      key: 'orderedList',
      icon: ListOrdered,
      label: t('compose.orderedList'),
      run: () => editor.chain().focus().toggleOrderedList().run(),
    },
    {
      key: 'blockquote',
      icon: Quote,
      label: t('compose.quote'),
      run: () => editor.chain().focus().toggleBlockquote().run(),
    },
  ] as const;

  return (
    <div className={styles.editor}>
      <div className={styles.toolbar} role="toolbar" aria-label={t('compose.formatting')}>
        {tools.map(({ key, icon: Icon, label: name, run }) => (
          <button
            key={key}
            type="button"
            className={clsx(styles.tool, state[key] && styles.toolActive)}
            aria-label={name}
            title={name}
            aria-pressed={state[key]}
            onMouseDown={(event) => event.preventDefault()}
            onClick={run}
          >
            <Icon aria-hidden />
          </button>
        ))}
        <button
          type="button"
          className={clsx(styles.tool, (state.link || linkOpen) && styles.toolActive)}
          aria-label={t('compose.link')}
          title={t('compose.link')}
          aria-pressed={state.link}
          aria-expanded={linkOpen}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => setLinkOpen(!linkOpen)}
        >
          <Link2 aria-hidden />
        </button>
        {linkOpen ? (
          <LinkForm
            initial={String(editor.getAttributes('link').href ?? '')}
            onDone={(href) => {
              setLinkOpen(false);
              const chain = editor.chain().focus().extendMarkRange('link');
              if (href === null) return;
              if (href === '') chain.unsetLink().run();
              else chain.setLink({ href }).run();
            }}
          />
        ) : null}
      </div>
      <EditorContent editor={editor} className={styles.editorContent} />
    </div>
  );
}

function LinkForm({ initial, onDone }: { initial: string; onDone(href: string | null): void }) {
  const { t } = useTranslation();
  const [href, setHref] = useState(initial);
  function submit() {
    const value = href.trim();
    // Only web and mail links: a javascript: URL typed here must not become a link.
    if (value && !/^(https?:\/\/|mailto:)/i.test(value)) onDone(`https://${value.replace(/^\w+:\/*/, '')}`);
    else onDone(value);
  }
  return (
    // Not a <form>: it sits inside the compose form, and forms do not nest.
    <div className={styles.linkForm}>
      <input
        autoFocus
        className={styles.linkInput}
        aria-label={t('compose.linkAddress')}
        placeholder="https://"
        value={href}
        onChange={(event) => setHref(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            submit();
          } else if (event.key === 'Escape') {
            event.stopPropagation();
            onDone(null);
          }
        }}
      />
      <button type="button" className={styles.linkApply} onClick={submit}>
        {t('compose.linkApply')}
      </button>
    </div>
  );
}
