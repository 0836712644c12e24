import type { IconButtonProps, SubmitButtonProps, TemplatesType } from '@rjsf/utils';
import { Button } from '../../ui';

// RJSF's own buttons draw icon-font glyphs the console does not ship: ours say what they do in words.
function textButton(text: string, variant: 'secondary' | 'danger' | 'ghost') {
  return function TextButton({ onClick, disabled, className: _className, iconType: _iconType, icon: _icon, uiSchema: _uiSchema, registry: _registry, ...rest }: IconButtonProps) {
    return (
      <Button {...rest} variant={variant} size="small" disabled={disabled} onClick={onClick}>
        {text}
      </Button>
    );
  };
}

// SchemaForm renders its own submit button beside the page's actions; RJSF's is switched off in the uiSchema.
const SubmitButton = (_props: SubmitButtonProps) => null;

export const buttonTemplates: Partial<TemplatesType['ButtonTemplates']> = {
  SubmitButton,
  AddButton: textButton('Add', 'secondary'),
  CopyButton: textButton('Copy', 'ghost'),
  MoveDownButton: textButton('Move down', 'ghost'),
  MoveUpButton: textButton('Move up', 'ghost'),
  RemoveButton: textButton('Remove', 'danger'),
  ClearButton: textButton('Clear', 'ghost'),
};
