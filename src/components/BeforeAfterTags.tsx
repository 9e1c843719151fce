/**
 * The "Before" and "After" tags in the top corners of a before/after view: the preview's stage and the
 * storefront's slider. Each view keeps its own class (`stage-label`, `ba-tag`): the preview hides its
 * tags while the original is held, the storefront's sit on a slightly darker ground.
 */
export function BeforeAfterTags({ className, before, after }: { className: string; before: string; after: string }) {
  return (
    <>
      <span className={`${className} left`}>{before}</span>
      <span className={`${className} right`}>{after}</span>
    </>
  );
}
