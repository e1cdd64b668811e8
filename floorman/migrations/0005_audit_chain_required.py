from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("floorman", "0004_audit_chain_fill")]

    operations = [
        migrations.AlterField(
            model_name="auditentry",
            name="seq",
            field=models.PositiveBigIntegerField(unique=True, verbose_name="number"),
        ),
    ]
