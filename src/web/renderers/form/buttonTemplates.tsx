import { t } from '../../app/i18n/messages';
import type { IconButtonProps, SubmitButtonProps, TemplatesType } from '@rjsf/utils';
import { Button } from '../../ui';

// RJSF's own buttons draw icon-font glyphs the console does not ship: ours say what they do in words.
function textButton(text: () => string, variant: 'secondary' | 'danger' | 'ghost') {
  return function TextButton({ onClick, disabled, className: _className, iconType: _iconType, icon: _icon, uiSchema: _uiSchema, registry: _registry, ...rest }: IconButtonProps) {
    return (
      <Button {...rest} variant={variant} size="small" disabled={disabled} onClick={onClick}>
        {text()}
      </Button>
    );
  };
}

// SchemaForm renders its own submit button beside the page's actions; RJSF's is switched off in the uiSchema.
const SubmitButton = (_props: SubmitButtonProps) => null;

export const buttonTemplates: Partial<TemplatesType['ButtonTemplates']> = {
  SubmitButton,
  AddButton: textButton(() => t('renderers.add'), 'secondary'),
  CopyButton: textButton(() => t('renderers.copy'), 'ghost'),
  MoveDownButton: textButton(() => t('renderers.moveDown'), 'ghost'),
  MoveUpButton: textButton(() => t('renderers.moveUp'), 'ghost'),
  RemoveButton: textButton(() => t('renderers.remove'), 'danger'),
  ClearButton: textButton(() => t('renderers.clear'), 'ghost'),
};
